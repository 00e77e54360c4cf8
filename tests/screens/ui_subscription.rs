//! The cost panel's plan line, for a subscription paid ahead: the time left, whether it renews
//! and what leaving now returns, in English and Chinese at the common sizes, without pushing
//! out the total or the footer's key hints; the provider's end and renewal once it reports
//! them; and nothing while no end is known.

use std::time::Duration;

use gpumeter::app::{App, Event, update};
use gpumeter::demo::demo_app;
use gpumeter::i18n::{Lang, scoped};
use gpumeter::money::{Currency, Money};
use gpumeter::subscription::{Plan, Refund, RefundTo, Reported, Subscription};
use jiff::SignedDuration;
use rust_decimal::Decimal;

use crate::common::ui_frame::rows;

fn screen(app: &App, size: (u16, u16)) -> Vec<String> {
    rows(app, size)
}

/// The demo cockpit ten days into a 1,000 USD month of thirty days, not renewing, whose
/// unused share goes back as vouchers.
fn with_plan() -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    app.subscription = Subscription {
        plan: Some(Plan::Month),
        paid: Some(Money::new(Decimal::from(1000), Currency::USD)),
        started: Some(app.now - SignedDuration::from_hours(10 * 24)),
        ends: Some(app.now + SignedDuration::from_hours(20 * 24)),
        renews: Some(false),
        refund: Some(Refund::Unused),
        refund_to: Some(RefundTo::Vouchers),
        ..Subscription::default()
    };
    app
}

/// Text without its spaces: a wide character is drawn with a blank cell after it.
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| *c != ' ').collect()
}

/// At 60×16 and 80×24 the panel has no row to spare: the time left goes in its border, after
/// what the total leaves out (cut to the duration at 60×16); at 120×40 the line has a row of
/// its own.
fn fits(lang: Lang, wanted: [&str; 3]) {
    let plain = demo_app(Duration::from_secs(200 * 60));
    let app = with_plan();
    for (size, wanted) in [(60, 16), (80, 24), (120, 40)].into_iter().zip(wanted) {
        let (without, with) = scoped(lang, || (screen(&plain, size), screen(&app, size)));
        let all = with.join("\n");
        // A line the width wraps is given as its rows, one per `\n`.
        for piece in wanted.split('\n') {
            assert!(
                squeezed(&all).contains(&squeezed(piece)),
                "{piece} at {size:?}\n{all}"
            );
        }
        assert_eq!(without.last(), with.last(), "the key hints at {size:?}");
        let total = scoped(lang, || gpumeter::t!("cost-total").into_owned());
        for row in without.iter().filter(|r| r.contains(total.as_str())) {
            assert!(with.contains(row), "{row:?} pushed out at {size:?}\n{all}");
        }
    }
}

#[test]
fn the_plan_line_fits_beside_the_total_and_the_key_hints() {
    fits(
        Lang::En,
        [
            "incomplete: 1 unknown  20d0h┘",
            "incomplete: 1 unknown  20d0h left ─",
            "plan 20d0h left · no renewal · leave now 666.67\nUSD vouchers",
        ],
    );
}

#[test]
fn the_plan_line_reads_in_chinese() {
    fits(
        Lang::ZhCn,
        [
            "1 项未知 剩 20d0h",
            "1 项未知 剩 20d0h ─",
            "包期 剩 20d0h · 不续费 · 现退 666.67 USD 代金券",
        ],
    );
}

#[test]
fn the_providers_end_and_renewal_win_and_no_end_shows_nothing() {
    let mut app = with_plan();
    let ends = app.now + SignedDuration::from_hours(2 * 24);
    let _ = update(
        &mut app,
        Event::Subscription(Reported {
            ends,
            renews: Some(true),
        }),
    );
    let all = screen(&app, (120, 40)).join("\n");
    assert!(all.contains("plan 2d0h left · renews · leave now"), "{all}");
    let plain = demo_app(Duration::from_secs(200 * 60));
    let all = screen(&plain, (120, 40)).join("\n");
    assert!(!all.contains("plan ") && !all.contains(" left · "), "{all}");
}
