//! The cost panel's balance line, where the provider keeps a prepaid balance: the cash and the
//! time it lasts at this instance's burn, said as an upper bound, at the common sizes, without
//! pushing out the total or the footer's key hints; and nothing where there is no balance.

use std::time::Duration;

use gpumeter::app::{App, Event, update};
use gpumeter::demo::demo_app;
use gpumeter::money::{Balance, Currency, Money};
use jiff::SignedDuration;
use rust_decimal::Decimal;

use crate::common::ui_frame::rows;

fn screen(app: &App, size: (u16, u16)) -> Vec<String> {
    rows(app, size)
}

/// The demo cockpit, its balance of `cash` read ten minutes before its instant.
fn with_balance(cash: i64) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let balance = Balance {
        available: Money::new(Decimal::from(cash), Currency::USD),
        vouchers: None,
    };
    let read_at = app.now - SignedDuration::from_mins(10);
    let _ = update(&mut app, Event::Balance(balance, read_at));
    app
}

/// The hours and minutes `cash` lasts from ten minutes before the fixture's instant at its
/// burn: "≤ 3h25m left".
fn left_text(app: &App, cash: i64) -> String {
    let burn = app
        .spend
        .reading
        .as_ref()
        .unwrap()
        .accrual
        .burn_per_hour
        .total()
        .amount;
    let seconds = (Decimal::from(cash) * Decimal::from(3600) / burn).floor();
    let left = i64::try_from(seconds).unwrap() - 600;
    let (h, m) = (left / 3600, left / 60 % 60);
    format!("≤ {h}h{m:02}m left")
}

#[test]
fn the_balance_line_fits_beside_the_total_and_the_key_hints() {
    let plain = demo_app(Duration::from_secs(200 * 60));
    let app = with_balance(100);
    let wanted = left_text(&app, 100);
    for size in [(60, 16), (80, 24), (120, 40)] {
        let without = screen(&plain, size);
        let with = screen(&app, size);
        let all = with.join("\n");
        assert!(all.contains("100.00 USD"), "{size:?}\n{all}");
        assert!(all.contains(&wanted), "{wanted} at {size:?}\n{all}");
        assert_eq!(
            without.last(),
            with.last(),
            "the footer's key hints at {size:?}"
        );
        // Every row that shows the total without the balance is still there with it.
        for row in without.iter().filter(|r| r.contains("total")) {
            assert!(with.contains(row), "{row:?} pushed out at {size:?}\n{all}");
        }
    }
    // Without a balance nothing of it is drawn.
    let all = screen(&plain, (120, 40)).join("\n");
    assert!(
        !all.contains("USD · ") && !all.contains("balance "),
        "{all}"
    );
}
