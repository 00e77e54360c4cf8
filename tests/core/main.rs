//! Tests of the pure core: `money`, `pricing` (sheets from text, never from files), `meter`,
//! `guard` and `app::update`, and the plain data types of `telemetry` and `provider`. Nothing
//! here starts a process, touches a file or the network, or runs the binary, so the group can
//! move with the core into a crate of its own.

mod meter_properties;
mod pricing_extends;
