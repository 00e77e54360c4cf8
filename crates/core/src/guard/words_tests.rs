//! The guards' sentences a user reads, in each language.

use rust_decimal::dec;

use super::budget::crossed_text;
use crate::i18n::{Lang, scoped};
use crate::money::{Currency, Money};

#[test]
fn a_budget_crossing_is_said_in_the_users_language() {
    let spent = Money::new(dec!(190.00), Currency::USD);
    let limit = Money::new(dec!(200.00), Currency::USD);
    let english = scoped(Lang::En, || crossed_text("", 95, spent, limit));
    assert_eq!(english, "budget: 95% used (190.00 USD of 200.00 USD)");
    let month = scoped(Lang::En, || {
        crossed_text(&crate::t!("budget-this-month"), 80, spent, limit)
    });
    assert_eq!(
        month,
        "budget this month: 80% used (190.00 USD of 200.00 USD)"
    );
    let chinese = scoped(Lang::ZhCn, || {
        crossed_text(&crate::t!("budget-this-month"), 95, spent, limit)
    });
    assert!(chinese.starts_with("预算"), "{chinese}");
    assert!(
        chinese.contains("95%") && chinese.contains("200.00 USD"),
        "{chinese}"
    );
    for word in ["budget", "used", " of ", "month"] {
        assert!(!chinese.contains(word), "{word} in {chinese}");
    }
}

#[test]
fn a_balance_alert_is_said_in_the_users_language() {
    use super::BalanceAlert;
    let cny = |d| Money::new(d, Currency::CNY);
    let floor = BalanceAlert::Floor {
        available: cny(dec!(9.50)),
        floor: cny(dec!(10.00)),
    };
    assert_eq!(
        scoped(Lang::En, || floor.text()),
        "balance: 9.50 CNY, at or under the floor of 10.00 CNY"
    );
    let chinese = scoped(Lang::ZhCn, || floor.text());
    assert_eq!(chinese, "余额：9.50 CNY，已不高于下限 10.00 CNY");
    let hours = BalanceAlert::HoursLeft {
        hours: 6,
        at: jiff::Timestamp::UNIX_EPOCH,
        available: cny(dec!(10.00)),
        burn: super::Burn {
            per_hour: cny(dec!(2.50)),
            scope: super::BurnScope::Account,
            uncounted: Some(0),
        },
    };
    assert_eq!(
        scoped(Lang::En, || hours.text()),
        "balance: under 6h of burn left (10.00 CNY at 2.50 CNY/h)"
    );
    let chinese = scoped(Lang::ZhCn, || hours.text());
    assert_eq!(
        chinese,
        "余额：按当前消耗已不足 6 小时（10.00 CNY，按 2.50 CNY/小时计）"
    );
}
