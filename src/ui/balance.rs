//! The words for a prepaid balance and when it runs out, in one place: `status`'s line, the
//! cockpit's cost panel and the watchdog's log say it the same way, from the catalogue.
//! `status --json` carries the amounts, never this line.

use jiff::Timestamp;

use super::text::short_duration;
use crate::guard::BalanceOutlook;

/// "29.29 CNY · runs out in 11h40m at 2.51 CNY/h"; a burn of this instance alone is said as a
/// bound ("≤ 11h40m at ≥ 2.51 CNY/h (this instance only; ...)").
pub fn line(o: &BalanceOutlook, now: Timestamp) -> String {
    let burn = &o.burn;
    let Some(left) = o.left(now) else {
        return crate::t!("balance-line-no-burn", balance = o.balance.line());
    };
    crate::t!(
        "balance-line",
        balance = o.balance.line(),
        bound = burn.at_most(),
        left = short_duration(left),
        at_least = burn.at_least(),
        burn = o.burn.per_hour.to_string(),
        note = burn.note()
    )
}

/// The cockpit's cell: "11h40m left", "≤ 11h40m left", or "no burn".
pub fn left_short(o: &BalanceOutlook, now: Timestamp) -> String {
    match o.left(now) {
        Some(left) => crate::t!(
            "balance-left",
            bound = o.burn.at_most(),
            left = short_duration(left)
        ),
        None => crate::t!("balance-no-burn").into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    use super::*;
    use crate::guard::{Burn, BurnScope};
    use crate::money::{Currency, Money};
    use crate::provider::Balance;

    fn outlook(scope: BurnScope, burn: rust_decimal::Decimal) -> BalanceOutlook {
        let cny = |d| Money::new(d, Currency::CNY);
        let balance = Balance {
            available: cny(dec!(29.29)),
            vouchers: None,
        };
        let burn = Burn {
            per_hour: cny(burn),
            scope,
            uncounted: (scope == BurnScope::Account).then_some(0),
        };
        BalanceOutlook::new(balance, burn, Timestamp::UNIX_EPOCH).unwrap()
    }

    #[test]
    fn the_line_says_when_and_at_what_burn_and_whose() {
        let now = Timestamp::UNIX_EPOCH;
        let o = outlook(BurnScope::Account, dec!(2.51));
        assert_eq!(
            line(&o, now),
            "29.29 CNY · runs out in 11h40m at 2.51 CNY/h"
        );
        assert_eq!(left_short(&o, now), "11h40m left");
        let o = outlook(BurnScope::ThisInstance, dec!(2.51));
        assert_eq!(
            line(&o, now),
            "29.29 CNY · runs out in ≤ 11h40m at ≥ 2.51 CNY/h (this instance only; other \
             instances not counted)"
        );
        assert_eq!(left_short(&o, now), "≤ 11h40m left");
        let o = outlook(BurnScope::Account, dec!(0));
        assert_eq!(line(&o, now), "29.29 CNY · nothing burns now");
        assert_eq!(left_short(&o, now), "no burn");
    }

    #[test]
    fn the_line_is_said_in_chinese_with_the_amounts_as_they_are() {
        use crate::i18n::{Lang, scoped};
        let now = Timestamp::UNIX_EPOCH;
        let mut o = outlook(BurnScope::ThisInstance, dec!(2.51));
        o.balance.vouchers = Some(Money::new(dec!(1.50), Currency::CNY));
        assert_eq!(
            scoped(Lang::En, || line(&o, now)),
            "29.29 CNY (vouchers 1.50 CNY) · runs out in ≤ 11h40m at ≥ 2.51 CNY/h (this \
             instance only; other instances not counted)"
        );
        let chinese = scoped(Lang::ZhCn, || line(&o, now));
        assert!(
            chinese.starts_with(
                "29.29 CNY（代金券 1.50 CNY） · 按 ≥ 2.51 CNY/小时计，≤ 11h40m 后用完"
            ),
            "{chinese}"
        );
        let idle = outlook(BurnScope::Account, dec!(0));
        let chinese_idle = scoped(Lang::ZhCn, || line(&idle, now));
        for said in [&chinese, &chinese_idle] {
            for word in ["runs out", "vouchers", "nothing burns", " at "] {
                assert!(!said.contains(word), "{word} in {said}");
            }
        }
    }
}
