//! Analysis of finished tables: value statistics, periodicity, power-law fits of counting
//! functions, and multi-heap positions.

pub mod counting;
pub mod period;
pub mod position;
pub mod power_law;
pub mod summary;
