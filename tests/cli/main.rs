//! The built `gpumeter` binary run as a user runs it: its output, exit status and files for
//! each command, and the cockpit in a real terminal under tmux.

#[path = "../shared/peer.rs"]
mod peer;

mod account_consistency;
mod account_surfaces;
mod actions_cli;
mod actions_recorded;
mod audit_cli;
mod audit_cli_bills;
mod audit_cli_cur;
mod audit_cli_cut;
mod audit_focus;
mod aws_cli;
mod bidi_cli;
mod cleanup_cli;
mod cockpit_cli;
mod command_cli;
mod core_dumps_cli;
mod detect_cli;
mod doctor_cli;
mod driver_errors;
mod e2e_tmux;
mod estimate_cli;
mod estimate_compare;
mod estimate_truth;
mod fake_libs;
mod guards_tmux;
mod input_cli;
mod keys_tmux;
mod kill_loop;
mod meta_cli;
mod nvml_cockpit_tmux;
mod nvml_doctor;
mod nvml_serve;
mod nvml_status;
mod nvml_verify;
mod panic_tmux;
mod pricing_cli;
mod progress_tmux;
mod readme_examples;
mod readme_links;
mod readme_screen;
mod regional_price;
mod report_focus;
mod resources_tmux;
mod serve_fleet_cli;
mod signals_tmux;
mod status_cli;
mod status_cloud;
mod verify_cli;
mod verify_scenarios;
mod watchdog_cli;
mod welcome_tmux;
mod zone_cli;
mod zone_tmux;
