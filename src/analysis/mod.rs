//! Analysis of finished tables: value statistics, P-position counts, power-law fits of
//! counting functions, the sparse space of take-and-break games and the row periodicity of
//! Wythoff's game.

pub mod counting;
pub mod growth;
pub mod power_law;
pub mod sparse_space;
pub mod summary;
pub mod wythoff;
