//! Tests of the pure core through its public API: `update` key by key and answer by answer on
//! the demo cockpit, the meter's properties, sheets that extend others, the findings, the
//! telemetry history and the verify scenarios on the simulator. Nothing here starts a process,
//! touches a file or the network, so `cargo test -p gpumeter-core` runs them without building
//! the edges.

mod app_budget;
mod app_keys;
mod app_offer;
mod app_prompt;
mod app_resources;
mod app_update;
mod app_watchdog;
mod audit_bills;
mod audit_bills_cut;
mod audit_bills_errors;
mod audit_bills_variants;
mod audit_match;
mod audit_match_causes;
mod audit_match_evidence;
mod audit_match_fixture;
mod drive;
mod fleet_discover;
mod focus_rows;
mod guard_owner;
mod meter_oracle;
mod meter_properties;
mod meter_release;
mod pricing_billing_states;
mod pricing_early_termination;
mod pricing_extends;
mod pricing_other_extras;
mod pricing_plans;
mod spend_minutes;
mod telemetry_findings;
mod telemetry_history;
mod telemetry_verify_sim;
mod verify_fixture;
mod verify_health;
mod verify_nvml;
mod verify_rated;
mod verify_throughput;
mod verify_use;
