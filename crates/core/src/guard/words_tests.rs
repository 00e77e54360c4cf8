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
