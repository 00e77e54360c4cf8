use proptest::prelude::*;
use rust_decimal::dec;

use super::*;
use crate::money::Currency;

fn cny(d: Decimal) -> Money {
    Money::new(d, Currency::CNY)
}

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

fn outlook(available: Decimal, burn: Decimal, now: Timestamp) -> BalanceOutlook {
    let balance = Balance {
        available: cny(available),
        vouchers: None,
    };
    let burn = Burn {
        per_hour: cny(burn),
        scope: BurnScope::Account,
        uncounted: Some(0),
    };
    BalanceOutlook::new(balance, burn, now).unwrap()
}

#[test]
fn the_cash_runs_out_after_the_hours_it_buys_rounded_down() {
    // 29.29 at 2.51 an hour: 11.669 hours, 42,009.56 s.
    let o = outlook(dec!(29.29), dec!(2.51), ts(0));
    assert_eq!(o.runs_out_at, Some(ts(42_009)));
    assert_eq!(o.left(ts(9)), Some(SignedDuration::from_secs(42_000)));
    assert_eq!(o.left(ts(50_000)), Some(SignedDuration::ZERO));
}

#[test]
fn nothing_burning_never_runs_out_and_nothing_left_runs_out_now() {
    assert_eq!(outlook(dec!(10), dec!(0), ts(5)).runs_out_at, None);
    assert_eq!(outlook(dec!(0), dec!(1), ts(5)).runs_out_at, Some(ts(5)));
    assert_eq!(outlook(dec!(-3), dec!(0), ts(5)).runs_out_at, Some(ts(5)));
}

#[test]
fn a_burn_in_another_currency_is_an_error() {
    let usd = Money::new(dec!(1), Currency::USD);
    assert!(runs_out_at(cny(dec!(10)), usd, ts(0)).is_err());
    let mut w = BalanceWatch::new(Some(usd));
    assert!(w.check(&outlook(dec!(10), dec!(1), ts(0)), ts(0)).is_err());
}

#[test]
fn each_threshold_is_said_once_and_a_jump_says_the_lowest() {
    let mut w = BalanceWatch::new(None);
    // 100 at 2 an hour: 50 hours left, nothing to say.
    assert!(
        w.check(&outlook(dec!(100), dec!(2), ts(0)), ts(0))
            .unwrap()
            .is_empty()
    );
    // 40 left: 20 hours, under 24.
    let a = w.check(&outlook(dec!(40), dec!(2), ts(0)), ts(0)).unwrap();
    assert!(matches!(a[..], [BalanceAlert::HoursLeft { hours: 24, .. }]));
    assert_eq!(a[0].key(), "balance:24h");
    assert!(
        w.check(&outlook(dec!(39), dec!(2), ts(0)), ts(0))
            .unwrap()
            .is_empty()
    );
    // 1 left: half an hour, past 6 and 1 at once: "under 1h" only.
    let a = w.check(&outlook(dec!(1), dec!(2), ts(0)), ts(0)).unwrap();
    assert_eq!(
        a[0].text(),
        "balance: under 1h of burn left (1.00 CNY at 2.00 CNY/h)"
    );
    assert_eq!(a.len(), 1);
    assert!(
        w.check(&outlook(dec!(0.5), dec!(2), ts(0)), ts(0))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn the_floor_is_said_once_and_again_after_a_top_up() {
    let mut w = BalanceWatch::new(Some(cny(dec!(5))));
    w.hours_left.clear();
    assert!(!w.at_floor(cny(dec!(5.01))).unwrap());
    assert!(w.at_floor(cny(dec!(5))).unwrap());
    let a = w.check(&outlook(dec!(4.8), dec!(1), ts(0)), ts(0)).unwrap();
    assert_eq!(
        a,
        [BalanceAlert::Floor {
            available: cny(dec!(4.8)),
            floor: cny(dec!(5))
        }]
    );
    assert_eq!(a[0].key(), "balance:floor");
    assert!(
        w.check(&outlook(dec!(4.7), dec!(1), ts(1)), ts(1))
            .unwrap()
            .is_empty()
    );
    // A top-up to above the floor, then down again: said again.
    assert!(
        w.check(&outlook(dec!(50), dec!(1), ts(2)), ts(2))
            .unwrap()
            .is_empty()
    );
    let a = w.check(&outlook(dec!(4), dec!(1), ts(3)), ts(3)).unwrap();
    assert!(matches!(a[..], [BalanceAlert::Floor { .. }]));
}

#[test]
fn a_burn_of_this_instance_alone_is_said_as_a_bound() {
    let burn = Burn::this_instance(cny(dec!(2.5)));
    let alert = BalanceAlert::HoursLeft {
        hours: 6,
        at: ts(0),
        available: cny(dec!(10)),
        burn,
    };
    assert_eq!(
        alert.text(),
        "balance: under 6h of burn left (10.00 CNY at ≥ 2.50 CNY/h (this instance only; \
         other instances not counted))"
    );
}

fn cents() -> impl Strategy<Value = Decimal> {
    (0i64..10_000_000).prop_map(|c| Decimal::new(c, 2))
}

proptest! {
    /// A smaller burn, or more cash, never brings the run-out time earlier.
    #[test]
    fn runs_out_never_earlier_when_burn_falls_or_cash_rises(
        cash in cents(), more in cents(), burn in cents(), less in cents(), now in 0i64..2_000_000_000,
    ) {
        let now = ts(now);
        let lower = (burn - less).max(Decimal::ZERO);
        let at = |c, b| runs_out_at(cny(c), cny(b), now).unwrap().unwrap_or(Timestamp::MAX);
        prop_assert!(at(cash, lower) >= at(cash, burn));
        prop_assert!(at(cash + more, burn) >= at(cash, burn));
        prop_assert!(at(cash, burn) >= now);
    }

    /// Whatever the readings, each threshold is said at most once while the cash only falls.
    #[test]
    fn each_alert_is_said_at_most_once_while_the_cash_falls(
        steps in proptest::collection::vec((cents(), cents()), 1..30),
    ) {
        let mut w = BalanceWatch::new(Some(cny(dec!(5))));
        let mut cash = dec!(100_000);
        let mut keys = Vec::new();
        for (i, (down, burn)) in steps.into_iter().enumerate() {
            cash = (cash - down).max(Decimal::ZERO);
            let now = ts(i64::try_from(i).unwrap() * 60);
            for alert in w.check(&outlook(cash, burn, now), now).unwrap() {
                prop_assert!(!keys.contains(&alert.key()), "{} said twice", alert.key());
                keys.push(alert.key());
            }
        }
    }
}
