use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::demo::cloud::DemoState;
use crate::demo::demo_pricing;

/// The demo instance as listed `ran` after its creation, with the demo's pricing.
fn listed(ran: SignedDuration) -> (Inventory, Pricing, Timestamp) {
    let now = Timestamp::from_second(1_795_960_800).unwrap();
    let mut state = DemoState::fresh(now);
    state.instance.created = now - ran;
    state.instance.history = vec![(state.instance.created, state.instance.state)];
    let inventory = Inventory {
        instance: Some(state.instance),
        resources: Vec::new(),
        deadline: None,
    };
    (inventory, demo_pricing().unwrap(), now)
}

fn with_minimum(pricing: &Pricing, seconds: u32) -> Pricing {
    let mut p = pricing.clone();
    p.sheet.billing.minimum_seconds = seconds;
    p
}

#[test]
fn a_release_inside_the_minimum_costs_the_minimum() {
    let (inv, pricing, now) = listed(SignedDuration::from_mins(4));
    let pricing = with_minimum(&pricing, 600);
    let line = cost_line(
        &Action::Release,
        Some(&inv),
        Some(&pricing),
        Some(&pricing.sheet),
        now,
    )
    .unwrap();
    // Ten minutes of the demo SKU at 27.44705 an hour.
    let ten_minutes = pricing.sku.on_demand_per_hour.unwrap() / rust_decimal::Decimal::from(6);
    let expected = crate::money::Money::new(ten_minutes, pricing.sheet.currency).to_string();
    assert_eq!(
        line,
        format!(
            "released 4 min in: the sheet bills a 10-minute minimum, so this machine costs {expected}"
        )
    );
}

#[test]
fn a_stop_past_the_minimum_says_so_and_bills_what_ran() {
    let (inv, pricing, now) = listed(SignedDuration::from_mins(200));
    let line = cost_line(
        &Action::Stop,
        Some(&inv),
        Some(&pricing),
        Some(&pricing.sheet),
        now,
    )
    .unwrap();
    assert!(
        line.starts_with("stopped 3 h 20 min in, past the sheet's 1-minute minimum: "),
        "{line}"
    );
    let hours = rust_decimal::Decimal::from(200) / rust_decimal::Decimal::from(60);
    let cost = crate::money::Money::new(
        pricing.sku.on_demand_per_hour.unwrap() * hours,
        pricing.sheet.currency,
    );
    assert!(line.ends_with(&cost.to_string()), "{line}");
}

#[test]
fn without_a_price_or_a_minimum_only_the_time_is_said() {
    let (inv, pricing, now) = listed(SignedDuration::from_secs(45));
    let none = with_minimum(&pricing, 0);
    let line = cost_line(&Action::Release, Some(&inv), None, Some(&none.sheet), now).unwrap();
    assert_eq!(line, "released 45 s in");
    let line = cost_line(
        &Action::Release,
        Some(&inv),
        None,
        Some(&pricing.sheet),
        now,
    )
    .unwrap();
    assert_eq!(line, "released 45 s in: the sheet bills a 1-minute minimum");
    assert_eq!(
        cost_line(&Action::Release, None, Some(&pricing), None, now),
        None
    );
}

#[test]
fn minimums_and_spans_read_as_people_say_them() {
    let (_, pricing, _) = listed(SignedDuration::ZERO);
    let words = |s| minimum_words(&with_minimum(&pricing, s).sheet);
    assert_eq!(words(0), None);
    assert_eq!(words(3600).as_deref(), Some("1-hour"));
    assert_eq!(words(600).as_deref(), Some("10-minute"));
    assert_eq!(words(90).as_deref(), Some("90-second"));
    assert_eq!(span(59), "59 s");
    assert_eq!(span(7200), "2 h");
    assert_eq!(span(7260), "2 h 1 min");
}
