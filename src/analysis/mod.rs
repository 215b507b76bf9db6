//! Analysis of finished tables: value statistics, periodicity, and multi-heap positions.

pub mod counting;
pub mod period;
pub mod position;
pub mod summary;
