//! GPU memory that stays nearly full and keeps climbing, or is full: the next allocation
//! fails with out-of-memory (a model or a batch one size too big; a leak in a notebook). Said
//! before the crash, while the user can still save a checkpoint or lower the batch.

use std::time::Duration;

use super::findings::{Finding, Severity};
use super::history::{Series, TelemetryHistory};
use super::metric::u64_to_f64;
use super::sample::GpuReading;
use crate::t;

/// When GPU memory counts as nearly full.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryFullRule {
    /// How long it must stay above `above` (and be higher at the end than at the start).
    pub window: Duration,
    /// The share of the card's memory it must stay above.
    pub above: f64,
    /// The share at which it is full now, whatever came before (one reading is enough).
    pub full: f64,
}

impl Default for MemoryFullRule {
    fn default() -> Self {
        MemoryFullRule {
            window: Duration::from_secs(120),
            above: 0.95,
            full: 0.99,
        }
    }
}

/// A GPU found nearly out of memory: its index, what it uses and has, and whether it climbed
/// (else it is full now).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryFull {
    pub index: u32,
    pub used_mib: u64,
    pub total_mib: u64,
    pub climbing: bool,
}

/// The GPUs whose memory is full now, or has stayed above the rule's share for its whole window
/// and climbed over it. A window with a failed reading, or not yet full, only finds a card that
/// is full now.
pub fn full_gpus(
    history: &TelemetryHistory,
    reading: &GpuReading,
    now: Duration,
    rule: &MemoryFullRule,
) -> Vec<MemoryFull> {
    let mut out = Vec::new();
    for gpu in &reading.gpus {
        let (Some(&used), Some(&total)) = (gpu.mem_used_mib.value(), gpu.mem_total_mib.value())
        else {
            continue;
        };
        if total == 0 {
            continue;
        }
        let total_f = u64_to_f64(total);
        let series = history
            .gpus()
            .iter()
            .find(|s| s.index == gpu.index)
            .map(|s| &s.mem_used_mib);
        let climbing = series.is_some_and(|s| stays_above_and_climbs(s, now, rule, total_f));
        if climbing || u64_to_f64(used) >= rule.full * total_f {
            out.push(MemoryFull {
                index: gpu.index,
                used_mib: used,
                total_mib: total,
                climbing,
            });
        }
    }
    out
}

/// [`full_gpus`] as findings, one a GPU.
pub fn memory_full(
    history: &TelemetryHistory,
    reading: &GpuReading,
    now: Duration,
    rule: &MemoryFullRule,
) -> Vec<Finding> {
    full_gpus(history, reading, now, rule)
        .into_iter()
        .map(|m| {
            let climbing = if m.climbing { "yes" } else { "no" };
            let above = format!("{:.0}", rule.above * 100.0);
            let minutes = rule.window.as_secs().div_ceil(60).to_string();
            Finding::said(Severity::Warning, "gpu_memory_full", || {
                t!(
                    "finding-gpu-memory-full",
                    gpu = m.index,
                    climbing = climbing,
                    above = above.as_str(),
                    minutes = minutes.as_str(),
                    used = m.used_mib.to_string(),
                    total = m.total_mib.to_string()
                )
            })
        })
        .collect()
}

/// Every reading of the window above `rule.above` of `total`, the window complete, and the
/// last reading higher than the first.
fn stays_above_and_climbs(
    series: &Series,
    now: Duration,
    rule: &MemoryFullRule,
    total: f64,
) -> bool {
    let stats = series.window(now, rule.window);
    if !stats.is_complete(rule.window) || stats.min.is_none_or(|m| m < rule.above * total) {
        return false;
    }
    let from = now.saturating_sub(rule.window);
    let mut inside = series
        .iter()
        .filter(|(at, _)| *at >= from && *at <= now)
        .filter_map(|(_, v)| v);
    let first = inside.next();
    let last = inside.next_back();
    matches!((first, last), (Some(first), Some(last)) if last > first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::{HistoryConfig, Metric};

    const TOTAL: u64 = 81_920;

    /// One A100 80GB whose used memory is `used` MiB.
    fn reading(used: u64) -> GpuReading {
        let mut sample =
            crate::telemetry::GpuSample::unavailable(0, crate::telemetry::Unavailable::Pending);
        sample.mem_used_mib = Metric::Value(used);
        sample.mem_total_mib = Metric::Value(TOTAL);
        GpuReading {
            driver: crate::telemetry::DriverInfo {
                driver_version: Metric::Unavailable(crate::telemetry::Unavailable::Pending),
                cuda_version: Metric::Unavailable(crate::telemetry::Unavailable::Pending),
            },
            gpus: vec![sample],
        }
    }

    /// A history of a reading a second over `secs` seconds, used memory from `used(t)`.
    fn history(secs: u64, used: impl Fn(u64) -> u64) -> TelemetryHistory {
        let mut h = TelemetryHistory::new(HistoryConfig::default());
        for t in 0..=secs {
            h.record_gpus(Duration::from_secs(t), &Ok(reading(used(t))));
        }
        h
    }

    #[test]
    fn above_the_share_for_the_whole_window_and_climbing_is_found() {
        let rule = MemoryFullRule::default();
        let now = Duration::from_secs(180);
        // 96 % climbing to 98 %, never full.
        let climbing = history(180, |t| 78_650 + t * 10);
        let found = memory_full(&climbing, &reading(78_650 + 1_800), now, &rule);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].code, "gpu_memory_full");
        assert!(
            found[0].message.contains("still climbing"),
            "{}",
            found[0].message
        );
        assert!(
            found[0].message.contains("of 81920 MiB"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn memory_nearly_full_is_shown_in_chinese_and_kept_in_english() {
        use crate::i18n::{Lang, scoped};
        let rule = MemoryFullRule::default();
        let now = Duration::from_secs(180);
        let climbing = history(180, |t| 78_650 + t * 10);
        let find = || memory_full(&climbing, &reading(78_650 + 1_800), now, &rule);
        let english = scoped(Lang::En, find);
        let chinese = scoped(Lang::ZhCn, find);
        assert_eq!(chinese[0].message, english[0].message);
        assert_eq!(english[0].shown(), english[0].message);
        let shown = chinese[0].shown();
        assert!(
            shown.contains("显存") && shown.contains("仍在上涨"),
            "{shown}"
        );
        assert!(shown.contains("80450 / 81920 MiB"), "{shown}");
        for word in ["memory", "climbing", "checkpoint", "allocation"] {
            assert!(!shown.contains(word), "{word} in {shown}");
        }
    }

    #[test]
    fn a_steady_cache_a_dip_below_or_a_short_history_is_not() {
        let rule = MemoryFullRule::default();
        let now = Duration::from_secs(180);
        // A framework's allocator holding 97 % steadily: high, not climbing.
        let steady = history(180, |_| 79_500);
        assert!(memory_full(&steady, &reading(79_500), now, &rule).is_empty());
        // Climbing, but one reading at 90 %.
        let dipped = history(180, |t| if t == 150 { 73_700 } else { 78_650 + t * 10 });
        assert!(memory_full(&dipped, &reading(80_450), now, &rule).is_empty());
        // Climbing for a minute only.
        let short = history(60, |t| 78_650 + t * 10);
        let now = Duration::from_secs(60);
        assert!(memory_full(&short, &reading(79_250), now, &rule).is_empty());
    }

    #[test]
    fn full_now_is_found_from_one_reading() {
        let rule = MemoryFullRule::default();
        let none = TelemetryHistory::new(HistoryConfig::default());
        let found = memory_full(&none, &reading(TOTAL), Duration::ZERO, &rule);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("is full (81920 of 81920 MiB)"),
            "{}",
            found[0].message
        );
        assert!(memory_full(&none, &reading(TOTAL * 97 / 100), Duration::ZERO, &rule).is_empty());
    }
}
