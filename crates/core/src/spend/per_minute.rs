//! What the meter spent in each of the last sixty whole minutes. No sampler: the meter is a
//! function of time over what it already records (the lifecycle, the traffic, the resources),
//! so each minute is the accrual at its end less the accrual at its start. Whole minutes only,
//! so the series changes once a minute, and a screen drawing it redraws once a minute too.

use jiff::Timestamp;
use rust_decimal::Decimal;

use crate::meter::{Usage, accrue};
use crate::pricing::Sheet;

/// Minutes the series covers.
pub const MINUTES: usize = 60;

/// The start of the minute `now` is in, in seconds since the epoch: the series' key.
pub fn minute_of(now: Timestamp) -> i64 {
    now.as_second().div_euclid(60) * 60
}

/// The spend in each of the [`MINUTES`] whole minutes before `now`'s minute, oldest first.
pub fn per_minute(sheet: &Sheet, usage: &Usage, now: Timestamp) -> Vec<Decimal> {
    let end = minute_of(now);
    let total_at = |minutes_back: usize| {
        let back = i64::try_from(minutes_back).unwrap_or(0) * 60;
        Timestamp::from_second(end - back)
            .ok()
            .map(|at| accrue(sheet, usage, at).accrued.total().amount)
    };
    let totals: Vec<Option<Decimal>> = (0..=MINUTES).rev().map(total_at).collect();
    totals
        .windows(2)
        .map(|w| match (w[0], w[1]) {
            (Some(before), Some(after)) => (after - before).max(Decimal::ZERO),
            _ => Decimal::ZERO,
        })
        .collect()
}
