//! Another tenant on the card: memory and utilisation that no process of this machine accounts
//! for, read while none of ours ran. NVML returns host PIDs inside a container, so a process
//! NVML lists without a name (`/proc` has no such PID here) belongs to someone else.

use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, VerifyInput, What};
use crate::telemetry::metric::u64_to_f64;
use crate::telemetry::{GpuSample, Metric, Unavailable};

pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Vec<Check> {
    let idle: Vec<&GpuSample> = input
        .idle
        .iter()
        .filter_map(|r| r.gpus.iter().find(|g| g.index == gpu.index))
        .collect();
    vec![memory(input, gpu, &idle), utilisation(input, gpu, &idle)]
}

/// Memory used beyond what this machine's processes hold, MiB, and how many processes NVML
/// lists that this machine cannot see.
fn foreign_mib(sample: &GpuSample) -> Result<(u64, usize), Unavailable> {
    let used = match sample.mem_used_mib {
        Metric::Value(u) => u,
        Metric::Unavailable(why) => return Err(why),
    };
    let processes = match &sample.processes {
        Metric::Value(p) => p,
        Metric::Unavailable(why) => return Err(*why),
    };
    let mut ours = 0_u64;
    for p in processes.iter().filter(|p| p.name.is_some()) {
        match p.used_mem_mib {
            Metric::Value(m) => ours = ours.saturating_add(m),
            Metric::Unavailable(why) => return Err(why),
        }
    }
    let unseen = processes.iter().filter(|p| p.name.is_none()).count();
    Ok((used.saturating_sub(ours), unseen))
}

fn no_idle() -> String {
    crate::t!("verify-no-idle").into_owned()
}

fn mean(values: &[f64]) -> Option<f64> {
    let n = u64::try_from(values.len()).ok().filter(|n| *n > 0)?;
    Some(values.iter().sum::<f64>() / u64_to_f64(n))
}

fn memory(input: &VerifyInput<'_>, gpu: &Gpu<'_>, idle: &[&GpuSample]) -> Check {
    let at = gpu.at;
    let what: What = || crate::t!("verify-what-foreign-memory");
    let mut values = Vec::new();
    let mut unseen = 0;
    let mut reason = None;
    for sample in idle {
        match foreign_mib(sample) {
            Ok((mib, n)) => {
                values.push(u64_to_f64(mib));
                unseen = unseen.max(n);
            }
            Err(why) => reason = reason.or(Some(why)),
        }
    }
    let Some(mib) = mean(&values) else {
        return match reason {
            Some(why) => Check::unread("foreign_memory", at, why, what),
            None => Check::unread_says("foreign_memory", at, no_idle, what),
        };
    };
    let bar = input.thresholds.foreign_memory_mib;
    let check = if mib > u64_to_f64(bar) {
        let gib = format!("{:.1}", mib / 1024.0);
        Check::says("foreign_memory", at, Verdict::Fail, move || match unseen {
            0 => crate::t!("verify-foreign-memory", gib = gib.as_str()),
            n => crate::t!(
                "verify-foreign-memory-unseen",
                gib = gib.as_str(),
                count = n
            ),
        })
    } else {
        let mib = format!("{mib:.0}");
        Check::says("foreign_memory", at, Verdict::Pass, move || {
            crate::t!("verify-foreign-memory-none", mib = mib.as_str())
        })
    };
    check
        .measured(Reading::number(mib, "MiB"))
        .rated(Reading::number(u64_to_f64(bar), "MiB"))
}

fn utilisation(input: &VerifyInput<'_>, gpu: &Gpu<'_>, idle: &[&GpuSample]) -> Check {
    let at = gpu.at;
    let what: What = || crate::t!("verify-what-foreign-util");
    let mut values = Vec::new();
    let mut ours_ran = false;
    let mut reason = None;
    for sample in idle {
        match (&sample.processes, &sample.util_pct) {
            (Metric::Value(p), _) if p.iter().any(|p| p.name.is_some()) => ours_ran = true,
            (Metric::Value(_), Metric::Value(u)) => values.push(f64::from(*u)),
            (Metric::Unavailable(why), _) | (_, Metric::Unavailable(why)) => {
                reason = reason.or(Some(*why));
            }
        }
    }
    let Some(pct) = mean(&values) else {
        return match (reason, ours_ran) {
            (_, true) => Check::unread_says(
                "foreign_utilisation",
                at,
                || crate::t!("verify-ours-ran").into_owned(),
                what,
            ),
            (Some(why), false) => Check::unread("foreign_utilisation", at, why, what),
            (None, false) => Check::unread_says("foreign_utilisation", at, no_idle, what),
        };
    };
    let bar = f64::from(input.thresholds.foreign_util_pct);
    let (verdict, busy) = (
        if pct > bar {
            Verdict::Fail
        } else {
            Verdict::Pass
        },
        format!("{pct:.0}"),
    );
    Check::says("foreign_utilisation", at, verdict, move || {
        if verdict == Verdict::Fail {
            crate::t!("verify-foreign-busy", pct = busy.as_str())
        } else {
            crate::t!("verify-foreign-idle", pct = busy.as_str())
        }
    })
    .measured(Reading::number(pct, "%"))
    .rated(Reading::number(bar, "%"))
}
