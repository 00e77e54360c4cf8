//! Bounded history per metric and statistics over a recent window: what the idle rule and the
//! sparklines read.
//!
//! Each metric keeps a ring of (time since start, reading) pairs with a fixed capacity, sized from
//! the history span and the sampling interval (10 minutes at 1 s by default: 601 points). Memory
//! is allocated once and never grows with uptime. A reading that failed is kept as `None`, so a
//! window can tell "idle" from "unknown": the idle rule counts unknown as active.
//!
//! A point takes 8 bytes: milliseconds after the series' base time as `u32`, and the reading as
//! `f32` (seven significant digits, more than any GPU counter shown). Eight GPUs' ten minutes
//! are about 200 KB instead of the 800 KB of `(Duration, Option<f64>)` pairs.

use std::collections::VecDeque;
use std::time::Duration;

use super::metric::u64_to_f64;
use super::sample::{GpuRound, GpuSample, HostSample};

/// GPUs tracked at most; more than any machine has, so a bad reading cannot grow the history.
const MAX_TRACKED_GPUS: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryConfig {
    /// How far back the full-resolution history reaches.
    pub span: Duration,
    /// The sampling interval the history is sized for.
    pub interval: Duration,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig {
            span: Duration::from_secs(600),
            interval: Duration::from_secs(1),
        }
    }
}

impl HistoryConfig {
    /// Points per metric: one per interval over the span, plus the sample at its start.
    pub fn capacity(&self) -> usize {
        let interval = self.interval.as_millis().max(1);
        usize::try_from(self.span.as_millis().div_ceil(interval))
            .unwrap_or(usize::MAX)
            .saturating_add(1)
            .clamp(2, 1 << 20)
    }
}

/// Mean, min and max of the readings in a window, and how complete the window is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WindowStats {
    /// Readings in the window, missing ones included.
    pub samples: usize,
    /// Readings in the window that had no value.
    pub missing: usize,
    pub mean: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// From the oldest reading in the window to `now`: less than the span while history is short.
    pub covered: Duration,
}

impl WindowStats {
    /// True when the history reaches back over the whole `span` and no reading in it failed.
    pub fn is_complete(&self, span: Duration) -> bool {
        self.missing == 0 && self.samples > 0 && self.covered >= span
    }
}

/// A fixed-capacity ring of timed readings of one metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    points: VecDeque<Point>,
    capacity: usize,
    /// What the points' times count from.
    base: Duration,
}

/// One reading, packed: see the module's comment.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point {
    after_base_ms: u32,
    /// NaN for a reading that failed (readings are finite).
    value: f32,
}

impl Series {
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Series {
            points: VecDeque::with_capacity(capacity),
            capacity,
            base: Duration::ZERO,
        }
    }

    /// Adds a reading, dropping the oldest when full.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a reading kept to f32's seven digits, on purpose"
    )]
    pub fn push(&mut self, at: Duration, value: Option<f64>) {
        if self.points.len() == self.capacity {
            self.points.pop_front();
        }
        if self.points.is_empty() {
            self.base = at;
        }
        let after_base_ms = if let Some(ms) = self.offset(at) {
            ms
        } else {
            self.rebase(at);
            self.offset(at).unwrap_or(u32::MAX)
        };
        let value = value
            .filter(|v| v.is_finite())
            .map_or(f32::NAN, |v| v as f32);
        self.points.push_back(Point {
            after_base_ms,
            value,
        });
    }

    fn offset(&self, at: Duration) -> Option<u32> {
        let after = at.checked_sub(self.base)?;
        u32::try_from(after.as_millis()).ok()
    }

    /// Counts from the oldest time kept (or `at`, if earlier) once times no longer fit: after
    /// 49 days of uptime, or a reading dated before the others. Readings 49 days away from
    /// `at` cannot be told apart from it any more and are dropped; no window reaches them.
    fn rebase(&mut self, at: Duration) {
        let reach = Duration::from_millis(u64::from(u32::MAX));
        let kept: Vec<(Duration, f32)> = self
            .points
            .iter()
            .map(|p| (self.time(*p), p.value))
            .filter(|(time, _)| time.abs_diff(at) < reach)
            .collect();
        self.base = kept.iter().map(|(time, _)| *time).fold(at, Duration::min);
        self.points = kept
            .into_iter()
            .map(|(time, value)| Point {
                after_base_ms: u32::try_from(time.saturating_sub(self.base).as_millis())
                    .unwrap_or(u32::MAX),
                value,
            })
            .collect();
        self.points
            .reserve_exact(self.capacity.saturating_sub(self.points.len()));
    }

    fn time(&self, point: Point) -> Duration {
        self.base + Duration::from_millis(u64::from(point.after_base_ms))
    }

    fn unpack(&self, point: Point) -> (Duration, Option<f64>) {
        let value = (!point.value.is_nan()).then_some(f64::from(point.value));
        (self.time(point), value)
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The most readings this series holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Memory actually reserved, in points: never more than a small constant over `capacity`.
    pub fn allocated(&self) -> usize {
        self.points.capacity()
    }

    pub fn latest(&self) -> Option<(Duration, Option<f64>)> {
        self.points.back().map(|p| self.unpack(*p))
    }

    /// Oldest first, for sparklines.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Duration, Option<f64>)> + '_ {
        self.points.iter().map(|p| self.unpack(*p))
    }

    /// Statistics over the readings taken at or after `now - span`, up to `now`.
    pub fn window(&self, now: Duration, span: Duration) -> WindowStats {
        let from = now.saturating_sub(span);
        let mut stats = WindowStats::default();
        let mut sum = 0.0;
        let mut oldest = None;
        for (at, value) in self.iter().rev() {
            if at > now {
                continue;
            }
            if at < from {
                break;
            }
            oldest = Some(at);
            stats.samples += 1;
            match value {
                Some(v) => {
                    sum += v;
                    stats.min = Some(stats.min.map_or(v, |m: f64| m.min(v)));
                    stats.max = Some(stats.max.map_or(v, |m: f64| m.max(v)));
                }
                None => stats.missing += 1,
            }
        }
        let present = stats.samples - stats.missing;
        if present > 0 {
            stats.mean = Some(sum / u64_to_f64(u64::try_from(present).unwrap_or(u64::MAX)));
        }
        stats.covered = oldest.map_or(Duration::ZERO, |o| now.saturating_sub(o));
        stats
    }
}

/// History of one GPU's headline metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuSeries {
    pub index: u32,
    pub util_pct: Series,
    pub power_weighted_load_pct: Series,
    pub power_w: Series,
    pub mem_used_mib: Series,
    pub temp_c: Series,
}

impl GpuSeries {
    fn new(index: u32, capacity: usize) -> Self {
        GpuSeries {
            index,
            util_pct: Series::new(capacity),
            power_weighted_load_pct: Series::new(capacity),
            power_w: Series::new(capacity),
            mem_used_mib: Series::new(capacity),
            temp_c: Series::new(capacity),
        }
    }

    fn push(&mut self, at: Duration, gpu: Option<&GpuSample>) {
        let read = |f: fn(&GpuSample) -> Option<f64>| gpu.and_then(f);
        self.util_pct
            .push(at, read(|g| g.util_pct.get().map(f64::from)));
        self.power_weighted_load_pct
            .push(at, read(|g| g.power_weighted_load_pct.get()));
        self.power_w.push(at, read(|g| g.power_w.get()));
        self.mem_used_mib
            .push(at, read(|g| g.mem_used_mib.get().map(u64_to_f64)));
        self.temp_c
            .push(at, read(|g| g.temp_c.get().map(f64::from)));
    }
}

/// History of the host metrics the idle rule and the meter display use.
#[derive(Debug, Clone, PartialEq)]
pub struct HostSeries {
    pub cpu_pct: Series,
    /// Bytes per second sent on metered interfaces.
    pub tx_bytes_per_s: Series,
    pub rx_bytes_per_s: Series,
}

/// Everything the cockpit keeps of past samples. Owned by the app state; fed from the
/// samplers' events.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetryHistory {
    capacity: usize,
    span: Duration,
    gpus: Vec<GpuSeries>,
    host: HostSeries,
}

impl TelemetryHistory {
    pub fn new(config: HistoryConfig) -> Self {
        let capacity = config.capacity();
        TelemetryHistory {
            capacity,
            span: config.span,
            gpus: Vec::new(),
            host: HostSeries {
                cpu_pct: Series::new(capacity),
                tx_bytes_per_s: Series::new(capacity),
                rx_bytes_per_s: Series::new(capacity),
            },
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How far back the history reaches once full.
    pub fn span(&self) -> Duration {
        self.span
    }

    /// One series per GPU seen so far, in NVML index order of first appearance.
    pub fn gpus(&self) -> &[GpuSeries] {
        &self.gpus
    }

    pub fn host(&self) -> &HostSeries {
        &self.host
    }

    /// Records a GPU round. A failed round, or a GPU missing from it, is recorded as missing.
    pub fn record_gpus(&mut self, at: Duration, round: &GpuRound) {
        let gpus = round
            .as_ref()
            .map(|r| r.gpus.as_slice())
            .unwrap_or_default();
        for gpu in gpus {
            if self.gpus.len() < MAX_TRACKED_GPUS && !self.gpus.iter().any(|s| s.index == gpu.index)
            {
                self.gpus.push(GpuSeries::new(gpu.index, self.capacity));
            }
        }
        for series in &mut self.gpus {
            let gpu = gpus.iter().find(|g| g.index == series.index);
            series.push(at, gpu);
        }
    }

    pub fn record_host(&mut self, at: Duration, host: &HostSample) {
        self.host.cpu_pct.push(at, host.cpu_pct.get());
        self.host
            .tx_bytes_per_s
            .push(at, host.tx_bytes_per_s().get());
        let rx = host
            .net
            .iter()
            .map(|n| n.rx_bytes_per_s)
            .try_fold(0.0, |acc, r| r.get().map(|v| acc + v));
        self.host.rx_bytes_per_s.push(at, rx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_takes_eight_bytes() {
        assert_eq!(std::mem::size_of::<Point>(), 8);
    }

    #[test]
    fn times_stay_exact_past_49_days_and_for_readings_dated_earlier() {
        let mut s = Series::new(4);
        let day = Duration::from_secs(86_400);
        let ms = Duration::from_millis(1);
        let just_before = Duration::from_millis(49 * 86_400_000 - 1);
        s.push(day, Some(1.0));
        s.push(day * 49, Some(2.0));
        // 50 days after the first: that one is dropped, the rest count from day 49.
        s.push(day * 51 + ms, None);
        s.push(just_before, Some(3.0));
        let got: Vec<_> = s.iter().collect();
        let want = vec![
            (day * 49, Some(2.0)),
            (day * 51 + ms, None),
            (just_before, Some(3.0)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn readings_keep_seven_significant_digits() {
        let mut s = Series::new(2);
        s.push(Duration::ZERO, Some(1_234_567.0));
        s.push(Duration::from_secs(1), Some(95.3));
        let got: Vec<f64> = s.iter().filter_map(|(_, v)| v).collect();
        assert!((got[0] - 1_234_567.0).abs() < f64::EPSILON, "{}", got[0]);
        assert!((got[1] - 95.3).abs() < 1e-5, "{}", got[1]);
    }
}
