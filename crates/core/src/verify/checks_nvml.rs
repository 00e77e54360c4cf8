//! What NVML says of how the card is handed to this machine and held back: MIG, vGPU, the
//! compute mode, the power limit and the clock-event (throttle) reasons.

use super::ComputeMode;
use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, What};
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{Metric, Unavailable, Virtualization};

/// A sentence from the catalogue.
type Say = fn() -> std::borrow::Cow<'static, str>;

/// Below this share of the default power limit a card is capped (warn) ...
const POWER_WARN_BELOW: f64 = 0.95;
/// ... and below this, capped enough to fail.
const POWER_FAIL_BELOW: f64 = 0.8;

pub(super) fn per_gpu(gpu: &Gpu<'_>) -> Vec<Check> {
    vec![
        mig(gpu),
        vgpu(gpu),
        compute_mode(gpu),
        power(gpu),
        clock_events(gpu),
    ]
}

fn mig(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let (measured, check) = match &gpu.sample.mig {
        Metric::Value(m) if m.enabled => {
            let sizes: Vec<String> = m
                .instance_mem_total_mib
                .iter()
                .map(|mib| format!("{:.0} GiB", u64_to_f64(*mib) / 1024.0))
                .collect();
            let sizes = sizes.join(", ");
            let check = Check::says("mig", at, Verdict::Fail, move || {
                if sizes.is_empty() {
                    crate::t!("verify-mig-on").into_owned()
                } else {
                    crate::t!("verify-mig-on-sees", sizes = sizes.as_str())
                }
            });
            ("on", check)
        }
        Metric::Value(_) => (
            "off",
            Check::says("mig", at, Verdict::Pass, || {
                crate::t!("verify-mig-off").into_owned()
            }),
        ),
        // A card without MIG cannot hand out a MIG slice.
        Metric::Unavailable(Unavailable::Unsupported) => (
            "unsupported",
            Check::says("mig", at, Verdict::Pass, || {
                crate::t!("verify-mig-none").into_owned()
            }),
        ),
        Metric::Unavailable(why) => {
            return Check::unread("mig", at, why, || crate::t!("verify-what-mig"));
        }
    };
    check
        .measured(Reading::text(measured, ""))
        .rated(Reading::text("off", ""))
}

fn vgpu(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let mode = match gpu.sample.virtualization {
        Metric::Value(v) => v,
        Metric::Unavailable(why) => {
            return Check::unread("vgpu", at, why, || crate::t!("verify-what-vgpu"));
        }
    };
    let (verdict, word, message): (_, _, Say) = match mode {
        Virtualization::Vgpu => (Verdict::Warn, "vgpu", || crate::t!("verify-vgpu-vgpu")),
        Virtualization::BareMetal => (Verdict::Pass, "bare_metal", || {
            crate::t!("verify-vgpu-bare-metal")
        }),
        Virtualization::Passthrough => (Verdict::Pass, "passthrough", || {
            crate::t!("verify-vgpu-passthrough")
        }),
        Virtualization::HostVgpu => (Verdict::Pass, "host_vgpu", || {
            crate::t!("verify-vgpu-host-vgpu")
        }),
        Virtualization::HostVsga => (Verdict::Pass, "host_vsga", || {
            crate::t!("verify-vgpu-host-vsga")
        }),
    };
    Check::says("vgpu", at, verdict, move || message().into_owned())
        .measured(Reading::text(word, ""))
        .rated(Reading::text("bare_metal or passthrough", ""))
}

fn compute_mode(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let mode = match gpu.facts.compute_mode {
        Metric::Value(m) => m,
        Metric::Unavailable(why) => {
            return Check::unread("compute_mode", at, why, || {
                crate::t!("verify-what-compute-mode")
            });
        }
    };
    let (verdict, word, message): (_, _, Say) = match mode {
        ComputeMode::Prohibited => (Verdict::Fail, "prohibited", || {
            crate::t!("verify-mode-prohibited")
        }),
        ComputeMode::Default => (Verdict::Pass, "default", || {
            crate::t!("verify-mode-default")
        }),
        ComputeMode::ExclusiveProcess => (Verdict::Pass, "exclusive_process", || {
            crate::t!("verify-mode-exclusive-process")
        }),
        ComputeMode::ExclusiveThread => (Verdict::Pass, "exclusive_thread", || {
            crate::t!("verify-mode-exclusive-thread")
        }),
    };
    Check::says("compute_mode", at, verdict, move || message().into_owned())
        .measured(Reading::text(word, ""))
        .rated(Reading::text("not prohibited", ""))
}

/// The enforced limit and what it is compared with: the card's default limit, else the rated
/// board power.
fn power_limits(gpu: &Gpu<'_>) -> Result<(f64, f64, Reference), (Unavailable, What)> {
    let watts = |m: &Metric<f64>| match m {
        Metric::Value(w) if w.is_finite() && *w >= 0.0 => Ok(*w),
        Metric::Value(_) => Err(Unavailable::Failed("invalid")),
        Metric::Unavailable(why) => Err(*why),
    };
    let limit = watts(&gpu.facts.power_limit_w)
        .map_err(|why| (why, (|| crate::t!("verify-what-power-limit")) as What))?;
    let default = watts(&gpu.facts.power_default_limit_w).and_then(|w| {
        if w > 0.0 {
            Ok(w)
        } else {
            Err(Unavailable::Failed("invalid"))
        }
    });
    match (default, gpu.rated.and_then(|r| r.board_power_w)) {
        (Ok(default), _) => Ok((limit, default, Reference::Default)),
        (Err(_), Some(board)) => Ok((limit, board.value, Reference::Board)),
        (Err(why), None) => Err((why, || crate::t!("verify-what-default-power-limit"))),
    }
}

/// What the enforced power limit is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// The card's default limit.
    Default,
    /// The rated board power, where NVML gives no default.
    Board,
}

/// Whether the enforced limit is below what the card ships with.
fn capped(gpu: &Gpu<'_>) -> bool {
    power_limits(gpu).is_ok_and(|(limit, reference, _)| limit < reference * POWER_WARN_BELOW)
}

fn power(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let (limit, reference, what) = match power_limits(gpu) {
        Ok(l) => l,
        Err((why, what)) => return Check::unread("power_cap", at, why, what),
    };
    let share = limit / reference;
    let (limit_w, reference_w) = (format!("{limit:.0}"), format!("{reference:.0}"));
    let mut check = if share < POWER_WARN_BELOW {
        let verdict = if share < POWER_FAIL_BELOW {
            Verdict::Fail
        } else {
            Verdict::Warn
        };
        Check::says("power_cap", at, verdict, move || {
            crate::t!(
                "verify-power-capped",
                limit = limit_w.as_str(),
                reference = reference_w.as_str()
            )
        })
    } else {
        let board = gpu
            .rated
            .and_then(|r| r.board_power_w)
            .filter(|b| reference < b.value * POWER_WARN_BELOW)
            .map(|b| format!("{:.0}", b.value));
        Check::says("power_cap", at, Verdict::Pass, move || {
            let what = match what {
                Reference::Default => crate::t!("verify-power-of-default"),
                Reference::Board => crate::t!("verify-power-of-board"),
            };
            match &board {
                Some(b) => crate::t!(
                    "verify-power-ok-board",
                    limit = limit_w.as_str(),
                    what = what,
                    board = b.as_str()
                ),
                None => crate::t!("verify-power-ok", limit = limit_w.as_str(), what = what),
            }
        })
    };
    check = check
        .measured(Reading::number(limit, "W"))
        .rated(Reading::number(reference, "W"))
        .with_ratio();
    if what == Reference::Board {
        check.rated_quality = gpu.rated.and_then(|r| r.board_power_w).map(|b| b.quality);
    }
    check
}

/// NVML's clock-event reason bits, what they mean, and how much each one matters.
const REASONS: [(u64, Say, Verdict); 9] = [
    (0x1, || crate::t!("verify-clock-idle"), Verdict::Pass),
    (0x2, || crate::t!("verify-clock-app-clocks"), Verdict::Warn),
    (0x4, || crate::t!("verify-clock-sw-power"), Verdict::Pass),
    (0x8, || crate::t!("verify-clock-hw-slowdown"), Verdict::Fail),
    (0x10, || crate::t!("verify-clock-sync-boost"), Verdict::Pass),
    (0x20, || crate::t!("verify-clock-sw-thermal"), Verdict::Warn),
    (0x40, || crate::t!("verify-clock-hw-thermal"), Verdict::Fail),
    (
        0x80,
        || crate::t!("verify-clock-power-brake"),
        Verdict::Fail,
    ),
    (0x100, || crate::t!("verify-clock-display"), Verdict::Pass),
];

fn clock_events(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let bits = match gpu.facts.clock_event_reasons {
        Metric::Value(b) => b,
        Metric::Unavailable(why) => {
            return Check::unread("clock_events", at, why, || {
                crate::t!("verify-what-clock-events")
            });
        }
    };
    let mut verdict = Verdict::Pass;
    for (bit, _, weight) in REASONS {
        if bits & bit != 0 {
            verdict = verdict.max(weight);
        }
    }
    let capped = capped(gpu);
    let clock = gpu
        .measured
        .and_then(|m| m.sm_clock_mhz)
        .zip(gpu.facts.sm_clock_max_mhz.get())
        .map(|(ran, max)| (ran.to_string(), max.to_string()));
    Check::says("clock_events", at, verdict, move || {
        let mut named: Vec<String> = REASONS
            .iter()
            .filter(|(bit, _, _)| bits & bit != 0)
            .map(|(bit, name, _)| format!("{} ({bit:#x})", name()))
            .collect();
        let known = REASONS.iter().fold(0, |all, (bit, _, _)| all | bit);
        if bits & !known != 0 {
            let other = format!("{:#x}", bits & !known);
            named.push(crate::t!("verify-clock-other", bits = other));
        }
        let listed = named.join(&crate::t!("verify-name-sep"));
        let message = if named.is_empty() {
            crate::t!("verify-clock-none").into_owned()
        } else if bits & 0x4 != 0 && verdict == Verdict::Pass {
            let tail = if capped {
                crate::t!("verify-clock-at-lowered-limit")
            } else {
                crate::t!("verify-clock-at-own-limit")
            };
            crate::t!("verify-clock-held-by-tail", names = listed, tail = tail)
        } else {
            crate::t!("verify-clock-held-by", names = listed)
        };
        match &clock {
            Some((ran, max)) => {
                message
                    + &crate::t!(
                        "verify-clock-ran-at",
                        ran = ran.as_str(),
                        max = max.as_str()
                    )
            }
            None => message,
        }
    })
    .measured(Reading::text(format!("{bits:#x}"), ""))
    .rated(Reading::text("0x0", ""))
}
