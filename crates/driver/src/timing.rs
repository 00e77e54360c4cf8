//! How one figure is timed within its share: a calibration launch (which is also the warm-up)
//! sizes the launches to about [`target_ms`](crate::sizing::target_ms) each, then timed
//! launches run until the share would be overrun, and the fastest counts. The clock and the
//! launch come in as closures, so this runs without a GPU.

use std::time::Duration;

use crate::sizing::{MIN_CALIBRATION_MS, target_ms, units_for};

/// The fastest timed launch: `units` of work in `ms` (by the device's own event timer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Best {
    pub units: u64,
    pub ms: f64,
}

/// Why a figure has no timed launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missed<E> {
    /// The share ran out before one timed launch.
    OutOfTime,
    /// The launch failed.
    Launch(E),
}

/// Time `launch(units) -> ms` within `share`, measured by `elapsed()` since the figure began.
/// `first_units` is the calibration size; no launch has more than `max_units`.
pub fn measure<E>(
    share: Duration,
    first_units: u64,
    max_units: u64,
    mut elapsed: impl FnMut() -> Duration,
    mut launch: impl FnMut(u64) -> Result<f64, E>,
) -> Result<Best, Missed<E>> {
    let share_ms = share.as_secs_f64() * 1e3;
    let elapsed_ms = |elapsed: &mut dyn FnMut() -> Duration| elapsed().as_secs_f64() * 1e3;
    let target = target_ms(share);

    let mut units = first_units.clamp(1, max_units.max(1));
    // The first launch is the warm-up (JIT, clocks ramping up) and the first calibration.
    let mut took = launch(units).map_err(Missed::Launch)?;
    while took < MIN_CALIBRATION_MS && units < max_units {
        let next = units_for(target, units, took, max_units);
        if next <= units {
            break;
        }
        // This calibration and one timed launch after it must still fit.
        if elapsed_ms(&mut elapsed) + 2.0 * took * ratio(next, units) > share_ms {
            return Err(Missed::OutOfTime);
        }
        units = next;
        took = launch(units).map_err(Missed::Launch)?;
    }

    let mut best: Option<Best> = None;
    loop {
        // Each launch resizes from the last, so a slow warm-up does not leave them short.
        let next = units_for(target, units, took, max_units);
        let expected = took * ratio(next, units);
        units = next;
        if elapsed_ms(&mut elapsed) + expected > share_ms {
            break;
        }
        took = launch(units).map_err(Missed::Launch)?;
        if took > 0.0 && best.is_none_or(|b| rate(units, took) > rate(b.units, b.ms)) {
            best = Some(Best { units, ms: took });
        }
    }
    best.ok_or(Missed::OutOfTime)
}

#[expect(
    clippy::cast_precision_loss,
    reason = "a rate to compare, not an exact count"
)]
fn rate(units: u64, ms: f64) -> f64 {
    units as f64 / ms
}

#[expect(
    clippy::cast_precision_loss,
    reason = "a growth ratio, not an exact count"
)]
fn ratio(next: u64, units: u64) -> f64 {
    next as f64 / units.max(1) as f64
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// A card that does one unit in `unit_ms` after a first launch that costs `first_extra_ms`
    /// more (the JIT, the clocks ramping); the clock advances by exactly what each launch took.
    struct Fake {
        now_ms: Cell<f64>,
        unit_ms: f64,
        first_extra_ms: Cell<f64>,
        launches: Cell<u32>,
        /// The launch (counted from 1) that fails, if any.
        fails_at: Option<u32>,
    }

    impl Fake {
        fn new(unit_ms: f64, first_extra_ms: f64) -> Self {
            Fake {
                now_ms: Cell::new(0.0),
                unit_ms,
                first_extra_ms: Cell::new(first_extra_ms),
                launches: Cell::new(0),
                fails_at: None,
            }
        }
        fn elapsed(&self) -> Duration {
            Duration::from_secs_f64(self.now_ms.get() / 1e3)
        }
        #[expect(clippy::cast_precision_loss, reason = "test units are far below 2^52")]
        fn launch(&self, units: u64) -> Result<f64, &'static str> {
            let ms = units as f64 * self.unit_ms + self.first_extra_ms.replace(0.0);
            self.now_ms.set(self.now_ms.get() + ms);
            self.launches.set(self.launches.get() + 1);
            if self.fails_at == Some(self.launches.get()) {
                return Err("CUDA_ERROR_LAUNCH_FAILED");
            }
            Ok(ms)
        }
    }

    #[test]
    fn the_best_launch_gives_the_card_s_rate_and_the_share_is_kept() {
        let fake = Fake::new(0.001, 0.0);
        let share = Duration::from_secs(2);
        let best = measure(share, 1, u64::MAX, || fake.elapsed(), |u| fake.launch(u)).unwrap();
        #[expect(clippy::cast_precision_loss, reason = "test units are far below 2^52")]
        let per_unit = best.ms / best.units as f64;
        assert!((per_unit - 0.001).abs() < 1e-9);
        assert!(fake.elapsed() <= share);
        assert!(
            fake.launches.get() > 10,
            "the share is used for many timed launches"
        );
    }

    #[test]
    fn a_slow_first_launch_is_a_warm_up_and_does_not_count() {
        let fake = Fake::new(0.01, 500.0);
        let best = measure(
            Duration::from_secs(3),
            100,
            u64::MAX,
            || fake.elapsed(),
            |u| fake.launch(u),
        )
        .unwrap();
        #[expect(clippy::cast_precision_loss, reason = "test units are far below 2^52")]
        let per_unit = best.ms / best.units as f64;
        assert!((per_unit - 0.01).abs() < 1e-9);
    }

    #[test]
    fn a_share_too_short_for_one_timed_launch_runs_out_of_time() {
        let fake = Fake::new(10.0, 0.0);
        let got = measure(
            Duration::from_millis(15),
            1,
            u64::MAX,
            || fake.elapsed(),
            |u| fake.launch(u),
        );
        assert_eq!(got, Err(Missed::OutOfTime));
    }

    #[test]
    fn a_timed_launch_that_fails_is_the_figure_s_error() {
        let mut fake = Fake::new(0.001, 0.0);
        fake.fails_at = Some(5);
        let got = measure(
            Duration::from_secs(1),
            1,
            u64::MAX,
            || fake.elapsed(),
            |u| fake.launch(u),
        );
        assert_eq!(got, Err(Missed::Launch("CUDA_ERROR_LAUNCH_FAILED")));
        assert_eq!(fake.launches.get(), 5, "no launch after the failure");
    }

    #[test]
    fn a_failed_launch_is_returned_as_it_failed() {
        let got: Result<Best, Missed<&str>> = measure(
            Duration::from_secs(1),
            1,
            10,
            || Duration::ZERO,
            |_| Err("boom"),
        );
        assert_eq!(got, Err(Missed::Launch("boom")));
    }

    #[test]
    fn no_launch_exceeds_the_cap() {
        let fake = Fake::new(1e-6, 0.0);
        let max_seen = Cell::new(0);
        let best = measure(
            Duration::from_millis(500),
            1,
            5000,
            || fake.elapsed(),
            |u| {
                max_seen.set(max_seen.get().max(u));
                fake.launch(u)
            },
        )
        .unwrap();
        assert_eq!(best.units, 5000);
        assert_eq!(max_seen.get(), 5000);
    }
}
