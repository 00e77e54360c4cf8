//! What the peers and the fault matrices share: the loopback HTTP server, one case of a fault
//! matrix, the fault proxy, moto, and the binary pointed at the Alibaba or Tencent peer.

pub mod cn_bin;
pub mod fault_matrix;
pub mod fault_proxy;
pub mod fleet_bin;
pub mod loopback;
pub mod moto;

/// The built binary, waiting between read-backs a fifth of a second: a loopback peer shows an
/// action's effect at once, so the tests need not wait the seconds a real cloud takes.
pub fn gpumeter() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    command.env("GPUMETER_READBACK_INTERVAL_MS", "200");
    command
}
