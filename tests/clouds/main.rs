//! The provider adapters against their peers: moto for AWS, the loopback Alibaba, Tencent,
//! Lambda, RunPod, Vast.ai and AutoDL peers (through the library and through the binary), the fault
//! matrices, the `command` provider against its scripts, and the shared HTTP layer.

#[path = "../shared/peer.rs"]
#[allow(
    dead_code,
    reason = "this binary probes no program, so it leaves `installed` unused"
)]
mod peer;

mod alibaba_peer;
mod autodl_peer;
mod common;
mod gpu_peer;
mod models;
mod tencent_peer;

mod alibaba_adapter;
mod alibaba_cli;
mod alibaba_faults;
mod all_regions;
mod autodl_adapter;
mod autodl_cli;
mod autodl_faults;
mod aws_checked;
mod aws_cleanup;
mod aws_doctor;
mod aws_elb;
mod aws_faults;
mod aws_fleet;
mod aws_fleet_bench;
mod aws_key_expiry;
mod aws_links;
mod aws_moto;
mod aws_paging;
mod aws_roles;
mod aws_start;
mod aws_sweep;
mod cn_cleanup;
mod cn_fleet;
mod cn_lb;
mod cn_regions;
mod cn_released;
mod cn_tags;
mod command_adapter;
mod fleet_accounts;
mod fleet_scale;
mod gpu_cleanup;
mod gpu_clouds;
mod gpu_clouds_cli;
mod gpu_clouds_faults;
mod gpu_fleet;
mod gpu_references;
mod instance_role_cli;
mod model_checks;
mod paging;
mod provider_http;
mod proxy_matrix;
mod start_support;
mod starts;
mod sweeps;
mod tencent_adapter;
mod tencent_faults;
mod watchdog_day;
