//! Analysis of finished tables: value statistics, P-position counts and power-law fits of
//! counting functions.

pub mod counting;
pub mod power_law;
pub mod summary;
