//! Helpers the integration tests share.

pub mod command;
pub mod engines;
pub mod evaluate;
pub mod external;
pub mod fifo;
pub mod plotting;
pub mod provenance;
pub mod resumable;
pub mod running;
pub mod skipped;
pub mod value_file;
