//! From ticks (a reading every second or so) to minute buckets: costs as the difference of two
//! running totals, GPU utilisation mean and max, mean power, energy and egress.
//!
//! Pure: every tick carries its own time, and nothing here reads a clock.

use jiff::Timestamp;

use super::amount::{from_nanos, to_nanos};
use super::record::{GpuMinute, MinuteBucket, SessionId, SplitCost};
use crate::meter::{Breakdown, EgressByClass};
use crate::money::Currency;
use crate::telemetry::{GpuReading, GpuSample};

/// The longest gap over which a power reading is integrated into energy: a longer gap (a
/// suspended laptop, a stalled sampler) is not guessed at.
const MAX_POWER_GAP_SECONDS: f64 = 10.0;

/// One GPU at one tick; `None` where the reading failed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GpuPoint {
    pub index: u32,
    pub util_pct: Option<f64>,
    pub power_w: Option<f64>,
    /// The driver's energy counter, in joules.
    pub energy_j: Option<f64>,
}

impl GpuPoint {
    pub fn from_sample(s: &GpuSample) -> Self {
        GpuPoint {
            index: s.index,
            util_pct: s.util_pct.get().map(f64::from),
            power_w: s.power_w.get(),
            energy_j: s.energy_j.get(),
        }
    }

    /// Every GPU of a reading.
    pub fn all(reading: &GpuReading) -> Vec<GpuPoint> {
        reading.gpus.iter().map(GpuPoint::from_sample).collect()
    }
}

/// What the cockpit knows at one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tick<'a> {
    pub at: Timestamp,
    /// The meter's running total (exact accrual) at `at`; `None` when nothing prices it.
    pub accrued: Option<&'a Breakdown>,
    pub gpus: &'a [GpuPoint],
    /// Metered bytes sent since the previous tick.
    pub egress_bytes: u64,
    /// Of them, those sent to the intranet and to other regions.
    pub egress_split: gpumeter_core::traffic::EgressSplit,
    /// The meter's running egress by destination at `at`, beside `accrued`.
    pub egress_accrued: Option<&'a EgressByClass>,
    /// Whether the idle rule holds at `at`. A minute is idle when it held at every tick.
    pub idle: bool,
}

/// Turns ticks into [`MinuteBucket`]s, one per minute that had a tick.
#[derive(Debug, Clone)]
pub struct MinuteAggregator {
    session: SessionId,
    currency: Currency,
    /// The running total (nano-units) at the end of the last bucket.
    baseline: Option<[i64; 4]>,
    /// The running total at the latest tick.
    latest: Option<[i64; 4]>,
    /// The intranet's and other regions' running costs at the end of the last bucket, and at
    /// the latest tick: the first tick is their baseline.
    split_base: Option<[i64; 2]>,
    split_latest: Option<[i64; 2]>,
    minute: Option<i64>,
    acc: Acc,
    /// Per GPU index: the time and energy counter of its last reading.
    last_gpu: Vec<(u32, i64, Option<f64>)>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    util_sum: f64,
    util_n: u32,
    util_max: Option<f64>,
    power_sum: f64,
    power_n: u32,
    energy_j: f64,
    egress: u64,
    split: gpumeter_core::traffic::EgressSplit,
    ticks: u32,
    idle_ticks: u32,
}

impl MinuteAggregator {
    /// `baseline` is the running total already in the ledger for this instance
    /// ([`Ledger::recorded_cost`](super::Ledger::recorded_cost)): the first minute then holds
    /// what accrued while nothing recorded. With `None`, the first tick is the baseline and
    /// only what accrues from then on is recorded.
    pub fn new(session: SessionId, currency: Currency, baseline: Option<&Breakdown>) -> Self {
        MinuteAggregator {
            session,
            currency,
            baseline: baseline.and_then(nanos),
            latest: None,
            split_base: None,
            split_latest: None,
            minute: None,
            acc: Acc::default(),
            last_gpu: Vec::new(),
        }
    }

    /// Feeds one tick; returns the previous minute's bucket when `tick` starts a new minute.
    pub fn push(&mut self, tick: &Tick<'_>) -> Option<MinuteBucket> {
        let minute = tick.at.as_second().div_euclid(60) * 60;
        let done = match self.minute {
            Some(current) if minute > current => self.finish(),
            _ => None,
        };
        if self.minute.is_none() {
            self.minute = Some(minute);
        }
        self.add(tick);
        done
    }

    /// Closes the minute in progress (at the end of a session).
    pub fn finish(&mut self) -> Option<MinuteBucket> {
        let minute = self.minute.take()?;
        let acc = std::mem::take(&mut self.acc);
        let cost = match (self.baseline, self.latest) {
            (Some(base), Some(latest)) => std::array::from_fn(|i| latest[i] - base[i]),
            _ => [0; 4],
        };
        if self.latest.is_some() {
            self.baseline = self.latest;
        }
        let split = match (self.split_base, self.split_latest) {
            (Some(base), Some(latest)) => [latest[0] - base[0], latest[1] - base[1]],
            _ => [0; 2],
        };
        if self.split_latest.is_some() {
            self.split_base = self.split_latest;
        }
        let [compute, bandwidth, storage, extras] = cost.map(from_nanos);
        Some(MinuteBucket {
            session: self.session,
            start: Timestamp::from_second(minute).unwrap_or(Timestamp::UNIX_EPOCH),
            cost: Breakdown {
                currency: self.currency,
                compute,
                bandwidth,
                storage,
                extras,
            },
            idle: acc.ticks > 0 && acc.idle_ticks == acc.ticks,
            gpu: GpuMinute {
                util_samples: acc.util_n,
                util_mean_pct: (acc.util_n > 0).then(|| acc.util_sum / f64::from(acc.util_n)),
                util_max_pct: acc.util_max,
                power_samples: acc.power_n,
                power_mean_w: (acc.power_n > 0).then(|| acc.power_sum / f64::from(acc.power_n)),
                energy_j: acc.energy_j,
            },
            egress_bytes: acc.egress,
            egress_split: acc.split,
            split_cost: SplitCost {
                intranet: from_nanos(split[0]),
                cross_region: from_nanos(split[1]),
            },
        })
    }

    fn add(&mut self, tick: &Tick<'_>) {
        if let Some(total) = tick.accrued.and_then(nanos) {
            self.baseline.get_or_insert(total);
            self.latest = Some(total);
        }
        if let Some(e) = tick.egress_accrued
            && let (Some(i), Some(x)) = (
                to_nanos(e.intranet.accrued),
                to_nanos(e.cross_region.accrued),
            )
        {
            self.split_base.get_or_insert([i, x]);
            self.split_latest = Some([i, x]);
        }
        let acc = &mut self.acc;
        acc.ticks += 1;
        acc.idle_ticks += u32::from(tick.idle);
        acc.egress = acc.egress.saturating_add(tick.egress_bytes);
        acc.split.merge(tick.egress_split);
        for gpu in tick.gpus {
            if let Some(u) = gpu.util_pct.filter(|u| u.is_finite()) {
                acc.util_sum += u;
                acc.util_n += 1;
                acc.util_max = Some(acc.util_max.map_or(u, |m| m.max(u)));
            }
            if let Some(p) = gpu.power_w.filter(|p| p.is_finite()) {
                acc.power_sum += p;
                acc.power_n += 1;
            }
        }
        self.add_energy(tick);
    }

    /// Energy from each GPU's counter where it has one, else its power over the time since
    /// its previous reading. A counter that went back (a driver reload) restarts.
    fn add_energy(&mut self, tick: &Tick<'_>) {
        let now = tick.at.as_second();
        for gpu in tick.gpus {
            let prev = self.last_gpu.iter_mut().find(|(i, _, _)| *i == gpu.index);
            let joules = match (&prev, gpu.energy_j) {
                (Some((_, _, Some(before))), Some(counter)) if counter >= *before => {
                    counter - before
                }
                (Some((_, then, _)), None) => {
                    #[expect(clippy::cast_precision_loss, reason = "a gap of seconds")]
                    let gap = (now - *then) as f64;
                    match gpu.power_w {
                        Some(p) if gap > 0.0 && gap <= MAX_POWER_GAP_SECONDS => p * gap,
                        _ => 0.0,
                    }
                }
                _ => 0.0,
            };
            if joules.is_finite() && joules > 0.0 {
                self.acc.energy_j += joules;
            }
            match prev {
                Some(p) => *p = (gpu.index, now, gpu.energy_j),
                None => self.last_gpu.push((gpu.index, now, gpu.energy_j)),
            }
        }
    }
}

fn nanos(b: &Breakdown) -> Option<[i64; 4]> {
    let [c, bw, s, e] = b.parts().map(to_nanos);
    Some([c?, bw?, s?, e?])
}
