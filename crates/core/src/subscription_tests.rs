use jiff::Timestamp;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;

use super::*;
use crate::money::{Currency, Money};

fn cny(amount: &str) -> Money {
    Money::new(amount.parse().unwrap(), "CNY".parse::<Currency>().unwrap())
}

fn at(text: &str) -> Timestamp {
    text.parse().unwrap()
}

/// A 1,000 CNY month of 30 days, from 1 November to 1 December.
fn month(refund: Option<Refund>, refund_to: Option<RefundTo>) -> Subscription {
    Subscription {
        plan: Some(Plan::Month),
        paid: Some(cny("1000")),
        started: Some(at("2026-11-01T00:00:00Z")),
        ends: Some(at("2026-12-01T00:00:00Z")),
        source: EndSource::Config,
        renews: Some(false),
        refund,
        refund_to,
    }
}

#[test]
fn ten_days_into_a_thousand_yuan_month_the_unused_share_is_two_thirds() {
    let sub = month(Some(Refund::Unused), Some(RefundTo::Vouchers));
    let now = at("2026-11-11T00:00:00Z");
    let standing = sub.at(now).unwrap();
    assert_eq!(standing.returns, Ok(cny("666.67")));
    assert_eq!(standing.refund_to, Some(RefundTo::Vouchers));
    assert_eq!(standing.remaining, SignedDuration::from_hours(20 * 24));
    assert_eq!(standing.renews, Some(false));
    assert!(!standing.no_refund() && !standing.ended());
}

#[test]
fn a_none_rule_returns_zero_said_as_no_refund() {
    let standing = month(Some(Refund::None), None)
        .at(at("2026-11-11T00:00:00Z"))
        .unwrap();
    assert_eq!(standing.returns, Ok(cny("0")));
    assert!(standing.no_refund());
}

#[test]
fn a_fraction_takes_its_share_of_the_unused_part() {
    let share = Refund::Share(Decimal::new(8, 1));
    let standing = month(Some(share), Some(RefundTo::Cash))
        .at(at("2026-11-11T00:00:00Z"))
        .unwrap();
    // 1000 × 20/30 × 0.8 = 533.333…
    assert_eq!(standing.returns, Ok(cny("533.33")));
    // A quarter of the month used: 1000 × 22.5/30 × 0.8 = 600.
    let later = month(Some(share), None)
        .at(at("2026-11-08T12:00:00Z"))
        .unwrap();
    assert_eq!(later.returns, Ok(cny("600")));
}

#[test]
fn unknown_is_never_zero() {
    let now = at("2026-11-11T00:00:00Z");
    assert_eq!(
        month(None, None).at(now).unwrap().returns,
        Err(Unknown::Rule)
    );
    let unpaid = Subscription {
        paid: None,
        ..month(Some(Refund::Unused), None)
    };
    assert_eq!(unpaid.at(now).unwrap().returns, Err(Unknown::Paid));
    let unstarted = Subscription {
        started: None,
        ..month(Some(Refund::Unused), None)
    };
    assert_eq!(unstarted.at(now).unwrap().returns, Err(Unknown::Start));
}

#[test]
fn after_the_end_nothing_is_left_to_return() {
    let standing = month(Some(Refund::Unused), None)
        .at(at("2026-12-02T00:00:00Z"))
        .unwrap();
    assert!(standing.ended());
    assert_eq!(standing.returns, Ok(cny("0")));
    // Before the start, the whole period is unused.
    let early = month(Some(Refund::Unused), None)
        .at(at("2026-10-01T00:00:00Z"))
        .unwrap();
    assert_eq!(early.returns, Ok(cny("1000")));
}

#[test]
fn a_plan_runs_a_calendar_period_in_the_zone() {
    let utc = TimeZone::UTC;
    let jan31 = at("2027-01-31T00:00:00Z");
    assert_eq!(
        Plan::Month.after(jan31, &utc),
        Some(at("2027-02-28T00:00:00Z"))
    );
    assert_eq!(
        Plan::Week.after(jan31, &utc),
        Some(at("2027-02-07T00:00:00Z"))
    );
    assert_eq!(
        Plan::Day.after(jan31, &utc),
        Some(at("2027-02-01T00:00:00Z"))
    );
    assert_eq!(
        Plan::Year.after(jan31, &utc),
        Some(at("2028-01-31T00:00:00Z"))
    );
    let shanghai = TimeZone::get("Asia/Shanghai").unwrap();
    // Midnight on 1 March in Shanghai is 16:00 UTC the day before; a month earlier is
    // midnight on 1 February there.
    assert_eq!(
        Plan::Month.before(at("2027-02-28T16:00:00Z"), &shanghai),
        Some(at("2027-01-31T16:00:00Z"))
    );
}

#[test]
fn a_later_provider_end_is_a_renewal_counted_back_one_period() {
    let utc = TimeZone::UTC;
    let renewed =
        month(Some(Refund::Unused), None).with_provider_end(at("2027-01-01T00:00:00Z"), &utc);
    assert_eq!(renewed.source, EndSource::Provider);
    assert_eq!(renewed.started, Some(at("2026-12-01T00:00:00Z")));
    // 1,000 CNY for December's 31 days; on 1 December all of it is unused.
    assert_eq!(
        renewed.at(at("2026-12-01T00:00:00Z")).unwrap().returns,
        Ok(cny("1000"))
    );
    // The same end as the config's keeps the config's start.
    // The provider's switch wins over the config's; where it says nothing, the config's holds.
    let reported = Reported {
        ends: at("2027-01-01T00:00:00Z"),
        renews: Some(true),
    };
    let switched = month(None, None).with_reported(reported, &utc);
    assert_eq!(switched.renews, Some(true));
    let silent = Reported {
        renews: None,
        ..reported
    };
    assert_eq!(
        month(None, None).with_reported(silent, &utc).renews,
        Some(false)
    );
    // Only the provider's end, with the plan: the period is counted back from it.
    let bare = Subscription {
        plan: Some(Plan::Week),
        ..Subscription::default()
    }
    .with_provider_end(at("2026-12-08T00:00:00Z"), &utc);
    assert_eq!(bare.started, Some(at("2026-12-01T00:00:00Z")));
    assert_eq!(Subscription::default().at(at("2026-12-01T00:00:00Z")), None);
    let same =
        month(Some(Refund::Unused), None).with_provider_end(at("2026-12-01T00:00:00Z"), &utc);
    assert_eq!(same.started, Some(at("2026-11-01T00:00:00Z")));
}

#[test]
fn refund_rules_read_as_the_config_writes_them() {
    assert_eq!("none".parse(), Ok(Refund::None));
    assert_eq!("unused".parse(), Ok(Refund::Unused));
    assert_eq!("0.8".parse(), Ok(Refund::Share(Decimal::new(8, 1))));
    assert_eq!("1".parse(), Ok(Refund::Unused));
    assert_eq!("0".parse(), Ok(Refund::None));
    assert_eq!("1.5".parse::<Refund>(), Err(BadRefund::Range("1.5".into())));
    assert_eq!(
        "-0.1".parse::<Refund>(),
        Err(BadRefund::Range("-0.1".into()))
    );
    assert_eq!(
        "some".parse::<Refund>(),
        Err(BadRefund::Word("some".into()))
    );
    assert_eq!(Refund::Share(Decimal::new(80, 2)).to_string(), "0.8");
    assert_eq!("vouchers".parse(), Ok(RefundTo::Vouchers));
    assert!("card".parse::<RefundTo>().is_err());
    assert_eq!("year".parse(), Ok(Plan::Year));
    assert!("fortnight".parse::<Plan>().is_err());
}
