//! What NVML says of how the card is handed to this machine and held back: MIG, vGPU, the
//! compute mode, the power limit and the clock-event (throttle) reasons.

use super::ComputeMode;
use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict};
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{Metric, Unavailable, Virtualization};

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
    let (verdict, measured, message) = match &gpu.sample.mig {
        Metric::Value(m) if m.enabled => {
            let sizes: Vec<String> = m
                .instance_mem_total_mib
                .iter()
                .map(|mib| format!("{:.0} GiB", u64_to_f64(*mib) / 1024.0))
                .collect();
            let seen = if sizes.is_empty() {
                String::new()
            } else {
                format!(" (this machine sees {})", sizes.join(", "))
            };
            (
                Verdict::Fail,
                "on",
                format!("MIG is on: a slice, not the card{seen}"),
            )
        }
        Metric::Value(_) => (
            Verdict::Pass,
            "off",
            "MIG is off: the whole card".to_owned(),
        ),
        // A card without MIG cannot hand out a MIG slice.
        Metric::Unavailable(Unavailable::Unsupported) => (
            Verdict::Pass,
            "unsupported",
            "the card has no MIG: the whole card".to_owned(),
        ),
        Metric::Unavailable(why) => return Check::unread("mig", at, why, "the MIG mode"),
    };
    Check::new("mig", at, verdict, message)
        .measured(Reading::text(measured, ""))
        .rated(Reading::text("off", ""))
}

fn vgpu(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let mode = match gpu.sample.virtualization {
        Metric::Value(v) => v,
        Metric::Unavailable(why) => {
            return Check::unread("vgpu", at, why, "the virtualization mode");
        }
    };
    let (verdict, word, message) = match mode {
        Virtualization::Vgpu => (
            Verdict::Warn,
            "vgpu",
            "a vGPU: a hypervisor's share of a card, not the whole card",
        ),
        Virtualization::BareMetal => (Verdict::Pass, "bare_metal", "bare metal: the whole card"),
        Virtualization::Passthrough => (
            Verdict::Pass,
            "passthrough",
            "passthrough: the whole card in a virtual machine",
        ),
        Virtualization::HostVgpu => (
            Verdict::Pass,
            "host_vgpu",
            "the host side of vGPUs: this machine owns the card",
        ),
        Virtualization::HostVsga => (
            Verdict::Pass,
            "host_vsga",
            "the host side of vSGA: this machine owns the card",
        ),
    };
    Check::new("vgpu", at, verdict, message.to_owned())
        .measured(Reading::text(word, ""))
        .rated(Reading::text("bare_metal or passthrough", ""))
}

fn compute_mode(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let mode = match gpu.facts.compute_mode {
        Metric::Value(m) => m,
        Metric::Unavailable(why) => {
            return Check::unread("compute_mode", at, why, "the compute mode");
        }
    };
    let (verdict, word, message) = match mode {
        ComputeMode::Prohibited => (
            Verdict::Fail,
            "prohibited",
            "compute mode Prohibited: no process may use the card",
        ),
        ComputeMode::Default => (
            Verdict::Pass,
            "default",
            "compute mode Default: processes may share the card",
        ),
        ComputeMode::ExclusiveProcess => (
            Verdict::Pass,
            "exclusive_process",
            "compute mode Exclusive Process: one process at a time",
        ),
        ComputeMode::ExclusiveThread => (
            Verdict::Pass,
            "exclusive_thread",
            "compute mode Exclusive Thread: one thread at a time",
        ),
    };
    Check::new("compute_mode", at, verdict, message.to_owned())
        .measured(Reading::text(word, ""))
        .rated(Reading::text("not prohibited", ""))
}

/// The enforced limit and what it is compared with: the card's default limit, else the rated
/// board power.
fn power_limits(gpu: &Gpu<'_>) -> Result<(f64, f64, &'static str), (Unavailable, &'static str)> {
    let watts = |m: &Metric<f64>| match m {
        Metric::Value(w) if w.is_finite() && *w >= 0.0 => Ok(*w),
        Metric::Value(_) => Err(Unavailable::Failed("invalid")),
        Metric::Unavailable(why) => Err(*why),
    };
    let limit = watts(&gpu.facts.power_limit_w).map_err(|why| (why, "the power limit"))?;
    let default = watts(&gpu.facts.power_default_limit_w).and_then(|w| {
        if w > 0.0 {
            Ok(w)
        } else {
            Err(Unavailable::Failed("invalid"))
        }
    });
    match (default, gpu.rated.and_then(|r| r.board_power_w)) {
        (Ok(default), _) => Ok((limit, default, "the card's default")),
        (Err(_), Some(board)) => Ok((limit, board.value, "the rated board power")),
        (Err(why), None) => Err((why, "the default power limit")),
    }
}

/// Whether the enforced limit is below what the card ships with.
fn capped(gpu: &Gpu<'_>) -> bool {
    power_limits(gpu).is_ok_and(|(limit, reference, _)| limit < reference * POWER_WARN_BELOW)
}

fn power(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let (limit, reference, what) = match power_limits(gpu) {
        Ok(l) => l,
        Err((why, name)) => return Check::unread("power_cap", at, why, name),
    };
    let share = limit / reference;
    let (verdict, message) = if share < POWER_WARN_BELOW {
        let verdict = if share < POWER_FAIL_BELOW {
            Verdict::Fail
        } else {
            Verdict::Warn
        };
        (
            verdict,
            format!("capped at {limit:.0} W of {reference:.0} W: a capped card is a slower card"),
        )
    } else {
        let board = gpu
            .rated
            .and_then(|r| r.board_power_w)
            .filter(|b| reference < b.value * POWER_WARN_BELOW)
            .map_or_else(String::new, |b| {
                format!(" (the model is rated up to {:.0} W)", b.value)
            });
        (Verdict::Pass, format!("{limit:.0} W, {what}{board}"))
    };
    let mut check = Check::new("power_cap", at, verdict, message)
        .measured(Reading::number(limit, "W"))
        .rated(Reading::number(reference, "W"))
        .with_ratio();
    if what == "the rated board power" {
        check.rated_quality = gpu.rated.and_then(|r| r.board_power_w).map(|b| b.quality);
    }
    check
}

/// NVML's clock-event reason bits, what they mean, and how much each one matters.
const REASONS: [(u64, &str, Verdict); 9] = [
    (0x1, "GPU idle", Verdict::Pass),
    (0x2, "application clocks pinned", Verdict::Warn),
    (0x4, "SW power cap", Verdict::Pass),
    (
        0x8,
        "HW slowdown (clocks cut by half or more)",
        Verdict::Fail,
    ),
    (0x10, "sync boost", Verdict::Pass),
    (0x20, "SW thermal slowdown", Verdict::Warn),
    (0x40, "HW thermal slowdown", Verdict::Fail),
    (
        0x80,
        "HW power brake (the host's power supply)",
        Verdict::Fail,
    ),
    (0x100, "display clock setting", Verdict::Pass),
];

fn clock_events(gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let bits = match gpu.facts.clock_event_reasons {
        Metric::Value(b) => b,
        Metric::Unavailable(why) => {
            return Check::unread("clock_events", at, why, "the clock-event reasons");
        }
    };
    let mut verdict = Verdict::Pass;
    let mut named = Vec::new();
    for (bit, name, weight) in REASONS {
        if bits & bit != 0 {
            verdict = verdict.max(weight);
            named.push(format!("{name} ({bit:#x})"));
        }
    }
    let known = REASONS.iter().fold(0, |all, (bit, _, _)| all | bit);
    if bits & !known != 0 {
        named.push(format!("other ({:#x})", bits & !known));
    }
    let message = if named.is_empty() {
        "no clock-event reason: clocks as high as they go".to_owned()
    } else if bits & 0x4 != 0 && verdict == Verdict::Pass {
        let tail = if capped(gpu) {
            "at a lowered limit (see the power check)"
        } else {
            "at the card's own limit, as under full load"
        };
        format!("clocks held back by {}: {tail}", named.join(", "))
    } else {
        format!("clocks held back by {}", named.join(", "))
    };
    let clock = match (
        gpu.measured.and_then(|m| m.sm_clock_mhz),
        gpu.facts.sm_clock_max_mhz.get(),
    ) {
        (Some(ran), Some(max)) => format!("; the SMs ran at {ran} of {max} MHz under load"),
        _ => String::new(),
    };
    Check::new("clock_events", at, verdict, message + &clock)
        .measured(Reading::text(format!("{bits:#x}"), ""))
        .rated(Reading::text("0x0", ""))
}
