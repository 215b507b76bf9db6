//! Analysis of finished tables: value statistics, P-position counts, power-law fits of
//! counting functions and the sparse space of take-and-break games.

pub mod counting;
pub mod power_law;
pub mod sparse_space;
pub mod summary;
