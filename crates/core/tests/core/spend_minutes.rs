//! The spend per minute over the last hour, from the meter's own record.

use std::time::Duration;

use rust_decimal::Decimal;

use gpumeter_core::demo::demo_app;
use gpumeter_core::spend::per_minute::MINUTES;

#[test]
fn a_steady_burn_spends_the_same_each_minute_and_sums_to_the_hourly_rate() {
    let app = demo_app(Duration::from_secs(3 * 3600));
    let reading = app.spend.reading.as_ref().expect("a reading");
    assert_eq!(reading.per_minute.len(), MINUTES);
    let burn = reading.accrual.burn_per_hour.total().amount;
    let hour: Decimal = reading.per_minute.iter().sum();
    assert!((hour - burn).abs() < Decimal::new(5, 2), "{hour} vs {burn}");
    assert!(reading.per_minute.iter().all(|m| *m > Decimal::ZERO));
}
