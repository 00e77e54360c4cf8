//! Costs as integer nano-units (10⁻⁹ of the currency unit).
//!
//! Why integers and not decimal text: SQLite sums integers exactly (and stops with an error on
//! overflow), while it would sum text as floating point. So per-day totals, the idle share and
//! the hourly rollup are exact in SQL, and the file stays small. An `i64` of nano-units holds
//! 9.2 billion units of a currency, far beyond any rental.
//!
//! A meter's running total divided into minutes can have more than nine decimals
//! (2.50 USD/h is 0.000694… per second). [`MinuteAggregator`](super::MinuteAggregator) rounds the
//! running total, never the minute, and stores the difference of two rounded totals, so the
//! minutes of a session always add up to its total rounded to the nano-unit, however many
//! there are.

use rust_decimal::{Decimal, RoundingStrategy};

/// Digits after the decimal point kept in the ledger.
pub const SCALE: u32 = 9;

/// `amount` in nano-units, rounded half to even; `None` when it does not fit an `i64`.
pub fn to_nanos(amount: Decimal) -> Option<i64> {
    let mut rounded = amount.round_dp_with_strategy(SCALE, RoundingStrategy::MidpointNearestEven);
    rounded.rescale(SCALE);
    i64::try_from(rounded.mantissa()).ok()
}

/// The exact decimal amount of `nanos` nano-units.
pub fn from_nanos(nanos: i64) -> Decimal {
    Decimal::new(nanos, SCALE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn round_trips_nine_decimals() {
        assert_eq!(to_nanos(dec!(1.5)), Some(1_500_000_000));
        assert_eq!(from_nanos(1_500_000_000), dec!(1.5));
        assert_eq!(to_nanos(dec!(-0.000000001)), Some(-1));
        assert_eq!(to_nanos(dec!(0.0000000005)), Some(0));
        assert_eq!(to_nanos(dec!(0.0000000015)), Some(2));
    }

    #[test]
    fn too_large_is_none() {
        assert_eq!(to_nanos(dec!(10_000_000_000)), None);
    }
}
