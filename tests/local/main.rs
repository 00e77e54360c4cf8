//! The program's parts in process, beyond the pure core: the ledger on disk (crashes
//! included), the telemetry sources and what is read from them, `serve` and its exposition,
//! webhooks against a loopback receiver, a real Prometheus scraping several serves (and the
//! Grafana dashboard's queries against it), the fleet, the checkpoint scan, `update` and the idle
//! rule on the demo fixture, the price sheets on disk and the cockpit's key table.

#[path = "../shared/peer.rs"]
#[allow(
    dead_code,
    reason = "this binary probes no program, so it leaves `installed` unused"
)]
mod peer;

mod notify_peer;
mod prometheus_peer;

mod architecture_doc;
mod checkpoint_scan;
mod fleet;
mod grafana_dashboard;
mod guard_rules;
mod ledger_billed;
mod ledger_crash;
mod ledger_days;
mod ledger_files;
mod ledger_guard;
mod ledger_report;
mod ledger_rollup;
mod notify_limits;
mod notify_webhook;
mod pricing_sheets;
mod private_files;
mod prometheus_server;
mod provider_ids;
mod readme_keys;
mod regional_sheets;
mod serve_exposition;
mod serve_http;
mod serve_promtool;
mod serve_stopped;
mod telemetry_host;
mod telemetry_nvml;
mod telemetry_sampler;
mod telemetry_sim;
mod watchdog_balance;
mod watchdog_budget;
mod watchdog_calls;
mod watchdog_clock;
mod watchdog_notify;
mod watchdog_stopped_release;
