//! gpumeter: a terminal cockpit for rented GPUs.
//!
//! The pure core (`money`, `pricing`, `meter`) takes time and usage as arguments and does no
//! I/O; the edges (`commands`, telemetry sources, the terminal) feed it and print it.

pub mod app;
pub mod cli;
pub mod cockpit;
pub mod commands;
pub mod config;
pub mod fleet;
pub mod guard;
pub mod ledger;
pub mod meter;
pub mod money;
pub mod notify;
pub mod pricing;
pub mod provider;
pub mod serve;
pub mod telemetry;
pub mod ui;
pub mod watchdog;
