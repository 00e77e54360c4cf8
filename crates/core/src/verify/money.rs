//! A shortfall in hours and money: a card at 48 % of its rated throughput needs about 2.1 hours
//! for each hour of work, so an hour of it is worth 48 % of its price. The share is rounded to
//! two places first, and the money is computed from that share in decimal.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::money::Money;

/// `ratio` (measured / rated) rounded half away from zero to two places; `None` for a ratio that
/// is not a finite number.
pub fn share(ratio: f64) -> Option<Decimal> {
    Decimal::try_from(ratio)
        .ok()
        .map(|d| d.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero))
}

/// "at 48 % of rated BF16 throughput, each hour of training costs you about 2.1 hours: 4.10 USD
/// an hour buys what 1.97 USD buys on a healthy card (each hour of work costs about 8.54 USD)".
pub fn shortfall(ratio: f64, name: &str, work: &str, hourly: Option<&Money>) -> String {
    let Some(share) = share(ratio) else {
        return crate::t!("verify-short-not-compared", name = name);
    };
    let percent = (share * Decimal::ONE_HUNDRED).normalize().to_string();
    if share <= Decimal::ZERO {
        return crate::t!("verify-short-none", pct = percent, name = name);
    }
    let hours = (Decimal::ONE / share)
        .round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
        .to_string();
    let mut line = crate::t!(
        "verify-short-hours",
        pct = percent,
        name = name,
        work = work,
        hours = hours
    );
    if let Some(hour) = hourly {
        let buys = hour.times(share).round_cents();
        let costs = Money::new(hour.amount / share, hour.currency).round_cents();
        line.push_str(&crate::t!(
            "verify-short-money",
            hour = hour.to_string(),
            buys = buys.to_string(),
            costs = costs.to_string()
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Currency;
    use rust_decimal::dec;

    #[test]
    fn the_seeds_example_in_hours_and_money() {
        let hour = Money::new(dec!(4.10), Currency::USD);
        let line = shortfall(0.4812, "BF16 throughput", "training", Some(&hour));
        assert!(
            line.starts_with("at 48 % of rated BF16 throughput"),
            "{line}"
        );
        assert!(line.contains("about 2.1 hours"), "{line}");
        assert!(
            line.contains("4.10 USD an hour buys what 1.97 USD"),
            "{line}"
        );
        assert!(line.contains("costs about 8.54 USD"), "{line}");
    }

    #[test]
    fn rounding_happens_on_the_share_first() {
        assert_eq!(share(0.4851), Some(dec!(0.49)));
        assert_eq!(share(0.4849), Some(dec!(0.48)));
        assert_eq!(share(f64::NAN), None);
        let line = shortfall(0.001, "FP32 throughput", "FP32 work", None);
        assert!(line.contains("almost none"), "{line}");
    }
}
