//! The simulated host: CPU, memory, one metered interface and one disk, so the cost meter and the
//! idle rule can run in demo mode. Counters are closed-form functions of `t`, so they are
//! monotonic and need no state.

use std::time::Duration;

use super::metric::{Metric, f64_to_u64};
use super::sample::{DiskUsage, HostSample, LoadAvg, Memory, NetInterface};
use super::sim::{Simulator, Stream};
use super::source::HostSource;

const MIB: f64 = 1_048_576.0;
const GIB: f64 = 1_073_741_824.0;

impl Simulator {
    /// The host at `at` seconds after the start.
    pub fn host_at(&self, at: Duration) -> HostSample {
        let h = &self.config().scenario.host;
        let cores: Vec<f64> = (0..h.cores)
            .map(|c| {
                let spread = 2.0 * h.cpu_jitter_pct;
                (h.cpu_pct + self.jitter(Stream::Core, c, at, spread)).clamp(0.0, 100.0)
            })
            .collect();
        let overall = self.jitter(Stream::Cpu, 0, at, h.cpu_jitter_pct / 2.0);
        let cpu_pct = (cores.iter().sum::<f64>() / f64::from(h.cores) + overall).clamp(0.0, 100.0);
        let running = f64::from(h.cores) * cpu_pct / 100.0;
        let secs = at.as_secs_f64();
        let burst_s = burst_seconds(secs, h.burst_every_s, h.burst_length_s);
        let tx = h.egress_mib_per_s * secs + h.burst_egress_mib_per_s * burst_s;
        let in_burst = in_burst(secs, h.burst_every_s, h.burst_length_s);
        let tx_rate = h.egress_mib_per_s
            + if in_burst {
                h.burst_egress_mib_per_s
            } else {
                0.0
            };
        let gib = |g: f64| f64_to_u64(g * GIB);
        HostSample {
            cpu_pct: Metric::Value(cpu_pct),
            cpu_per_core_pct: Metric::Value(cores),
            load_avg: Metric::Value(LoadAvg {
                one: running,
                five: running,
                fifteen: running,
            }),
            mem: Metric::Value(Memory {
                total_mib: f64_to_u64(h.mem_total_gib * 1024.0),
                available_mib: f64_to_u64((h.mem_total_gib - h.mem_used_gib) * 1024.0),
            }),
            net: vec![NetInterface {
                name: "eth0".to_owned(),
                rx_bytes: f64_to_u64(h.ingress_mib_per_s * secs * MIB),
                tx_bytes: f64_to_u64(tx * MIB),
                rx_bytes_per_s: Metric::Value(h.ingress_mib_per_s * MIB),
                tx_bytes_per_s: Metric::Value(tx_rate * MIB),
            }],
            disks: vec![DiskUsage {
                mount: "/".to_owned(),
                device: "/dev/nvme0n1p1".to_owned(),
                fs_type: "ext4".to_owned(),
                total_bytes: gib(h.disk_total_gib),
                used_bytes: gib(h.disk_used_gib),
                avail_bytes: gib(h.disk_total_gib - h.disk_used_gib),
            }],
            egress_split_total: crate::traffic::EgressSplit::default(),
        }
    }
}

impl HostSource for Simulator {
    fn read(&mut self, at: Duration) -> HostSample {
        self.host_at(at)
    }
}

/// Seconds spent inside bursts from 0 to `t`. A burst of `length` s closes every cycle of
/// `every` s, like the GPU's dips, so an upload follows a stretch of training.
fn burst_seconds(t: f64, every: u32, length: u32) -> f64 {
    if every == 0 || length == 0 {
        return 0.0;
    }
    let every = f64::from(every);
    let length = f64::from(length).min(every);
    let full = (t / every).floor();
    full * length + (t - full * every - (every - length)).max(0.0)
}

fn in_burst(t: f64, every: u32, length: u32) -> bool {
    every > 0 && t % f64::from(every) >= f64::from(every.saturating_sub(length))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_time_accumulates_piecewise() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(burst_seconds(0.0, 300, 60), 0.0));
        assert!(close(burst_seconds(240.0, 300, 60), 0.0));
        assert!(close(burst_seconds(270.0, 300, 60), 30.0));
        assert!(close(burst_seconds(330.0, 300, 60), 60.0));
        assert!(close(burst_seconds(570.0, 300, 60), 90.0));
        assert!(close(burst_seconds(1000.0, 0, 60), 0.0));
        assert!(in_burst(250.0, 300, 60) && !in_burst(310.0, 300, 60));
    }
}
