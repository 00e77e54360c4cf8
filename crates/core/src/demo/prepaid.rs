//! The demo cloud's prepaid balance (`GPUMETER_DEMO_BALANCE`), so the balance guard can be
//! seen and tested without a prepaid cloud: the cash topped up when the demo instance was
//! created, drawn down at the demo SKU's hourly price for every second it ran since. Only the
//! compute draws on it, as on a card-hour platform; the disks and addresses do not.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::cloud::{DEMO_SHEET, DEMO_SKU, DemoState};
use crate::meter::InstanceState;
use crate::money::Balance;
use crate::money::Money;
use crate::pricing::bundled_sheet;

/// Seconds the instance ran from its creation to `now`, by its state history.
pub fn running_seconds(state: &DemoState, now: Timestamp) -> i64 {
    let history = &state.instance.history;
    history
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| *s == InstanceState::Running)
        .map(|(i, (from, _))| {
            let to = history.get(i + 1).map_or(now, |(t, _)| *t).min(now);
            to.duration_since(*from).as_secs().max(0)
        })
        .sum()
}

/// The demo account's balance at `now`, from `topped_up` (in the demo sheet's currency) at the
/// instance's creation; `None` where the bundled sheet does not price the demo SKU.
pub fn balance(state: &DemoState, topped_up: Decimal, now: Timestamp) -> Option<Balance> {
    let sheet = bundled_sheet(DEMO_SHEET)?;
    let per_hour = sheet.sku(DEMO_SKU)?.on_demand_per_hour?;
    let spent = per_hour * Decimal::from(running_seconds(state, now)) / Decimal::from(3600);
    Some(Balance {
        available: Money::new((topped_up - spent).round_dp(2), sheet.currency),
        vouchers: None,
    })
}

#[cfg(test)]
mod tests {
    use jiff::SignedDuration;

    use super::*;

    #[test]
    fn the_balance_falls_while_the_instance_runs_and_holds_while_it_is_stopped() {
        let start = Timestamp::from_second(1_700_000_000).unwrap();
        let mut state = DemoState::fresh(start);
        let created = state.instance.created;
        assert_eq!(running_seconds(&state, start), 200 * 60);
        let stop = start + SignedDuration::from_hours(1);
        state.instance.state = InstanceState::Stopped;
        state.instance.history.push((stop, InstanceState::Stopped));
        let later = stop + SignedDuration::from_hours(5);
        assert_eq!(running_seconds(&state, later), 260 * 60);
        let rate = bundled_sheet(DEMO_SHEET)
            .and_then(|s| s.sku(DEMO_SKU)?.on_demand_per_hour)
            .unwrap();
        let at_stop = balance(&state, Decimal::from(500), stop).unwrap();
        assert_eq!(
            at_stop.available.amount,
            (Decimal::from(500) - rate * Decimal::from(260) / Decimal::from(60)).round_dp(2)
        );
        assert_eq!(balance(&state, Decimal::from(500), later), Some(at_stop));
        assert_eq!(running_seconds(&state, created), 0);
    }
}
