//! Another tenant on the card: memory and utilisation that no process of this machine accounts
//! for, read while none of ours ran. NVML returns host PIDs inside a container, so a process
//! NVML lists without a name (`/proc` has no such PID here) belongs to someone else.

use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, VerifyInput};
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

fn mean(values: &[f64]) -> Option<f64> {
    let n = u64::try_from(values.len()).ok().filter(|n| *n > 0)?;
    Some(values.iter().sum::<f64>() / u64_to_f64(n))
}

fn memory(input: &VerifyInput<'_>, gpu: &Gpu<'_>, idle: &[&GpuSample]) -> Check {
    let at = gpu.at;
    let what = "the memory held by others";
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
            None => Check::unread("foreign_memory", at, "no idle reading was taken", what),
        };
    };
    let bar = input.thresholds.foreign_memory_mib;
    let (verdict, message) = if mib > u64_to_f64(bar) {
        let procs = match unseen {
            0 => String::new(),
            1 => " (1 process this machine cannot see)".to_owned(),
            n => format!(" ({n} processes this machine cannot see)"),
        };
        (
            Verdict::Fail,
            format!(
                "another tenant holds {:.1} GiB of the card's memory{procs}",
                mib / 1024.0
            ),
        )
    } else {
        (
            Verdict::Pass,
            format!("{mib:.0} MiB beyond this machine's processes: no other tenant's memory"),
        )
    };
    Check::new("foreign_memory", at, verdict, message)
        .measured(Reading::number(mib, "MiB"))
        .rated(Reading::number(u64_to_f64(bar), "MiB"))
}

fn utilisation(input: &VerifyInput<'_>, gpu: &Gpu<'_>, idle: &[&GpuSample]) -> Check {
    let at = gpu.at;
    let what = "the utilisation while none of this machine's processes ran";
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
        let why = match (reason, ours_ran) {
            (_, true) => "a process of this machine ran during every idle reading".to_owned(),
            (Some(why), false) => why.to_string(),
            (None, false) => "no idle reading was taken".to_owned(),
        };
        return Check::unread("foreign_utilisation", at, why, what);
    };
    let bar = f64::from(input.thresholds.foreign_util_pct);
    let (verdict, message) = if pct > bar {
        (
            Verdict::Fail,
            format!("the card is {pct:.0} % busy with work this machine cannot see"),
        )
    } else {
        (
            Verdict::Pass,
            format!("{pct:.0} % busy while none of this machine's processes ran"),
        )
    };
    Check::new("foreign_utilisation", at, verdict, message)
        .measured(Reading::number(pct, "%"))
        .rated(Reading::number(bar, "%"))
}
