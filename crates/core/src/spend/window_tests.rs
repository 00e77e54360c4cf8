//! The account cut into windows (`report`'s days, FOCUS's hours, `audit`'s span): the windows
//! of a span add up to the span, the whole life is the account to date, and the egress the
//! ledger measured is priced as the account prices it.

use crate::traffic::EgressSplit;
use proptest::prelude::*;
use rust_decimal::Decimal;

use super::{Cloud, Ledger, pricing, ts};
use crate::meter::{Breakdown, InstanceState, Traffic};
use crate::spend::{RecordedMeter, recorded_account};

/// The end of every history below: a day and a half after creation.
const NOW: i64 = 129_600;

fn sum(
    windows: &[super::super::WindowCost],
    pick: fn(&super::super::WindowCost) -> Breakdown,
) -> Breakdown {
    windows
        .iter()
        .map(pick)
        .fold(Breakdown::zero(windows[0].accrued.currency), |a, b| a + b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn windows_add_up_to_the_span_and_the_whole_life_is_the_account_to_date(
        pauses in prop::collection::vec(600i64..30_000, 0..5),
        release in prop::option::of(3_600i64..NOW),
        keeps_released in any::<bool>(),
        sent in prop::collection::vec((0i64..NOW, 0u64..60_000_000_000), 0..6),
        cuts in prop::collection::vec(0i64..NOW, 0..8),
    ) {
        let p = pricing();
        let mut cloud = Cloud::new(keeps_released);
        let mut ledger = Ledger::default();
        ledger.saw(&cloud.inventory(ts(0)), ts(0));
        let (mut at, mut state) = (0, InstanceState::Running);
        for pause in pauses {
            at += pause;
            state = if state == InstanceState::Running { InstanceState::Stopped } else { InstanceState::Running };
            if at < NOW && release.is_none_or(|r| at < r) {
                cloud.change(ts(at), state);
                ledger.saw(&cloud.inventory(ts(at)), ts(at));
            }
        }
        if let Some(r) = release {
            cloud.change(ts(r), InstanceState::Released);
            ledger.released(ts(r));
        }
        ledger.saw(&cloud.inventory(ts(NOW)), ts(NOW));
        let mut recorded = ledger.0;
        let mut traffic: Vec<Traffic> = sent
            .iter()
            .map(|&(at, bytes)| Traffic { at: ts(at), egress_bytes: bytes, ingress_bytes: 0, split: EgressSplit::default() })
            .collect();
        traffic.sort_by_key(|t| t.at);
        recorded.traffic = traffic;

        let meter = RecordedMeter::new(Some(&p), &recorded, ts(NOW)).unwrap();
        let whole = meter.between(ts(0), ts(NOW)).unwrap();
        let account = recorded_account(Some(&p), &recorded, ts(NOW)).unwrap();
        prop_assert_eq!(whole.accrued, account.accrued);
        prop_assert_eq!(whole.billed, account.billed);

        let mut bounds: Vec<i64> = cuts.into_iter().chain([0, NOW]).collect();
        bounds.sort_unstable();
        bounds.dedup();
        let bounds: Vec<_> = bounds.into_iter().map(ts).collect();
        let windows = meter.cut(&bounds);
        prop_assert_eq!(windows.len(), bounds.len() - 1);
        prop_assert_eq!(sum(&windows, |w| w.accrued), whole.accrued);
        prop_assert_eq!(sum(&windows, |w| w.billed), whole.billed);

        // Every byte in one month, the sheet's allowance free, the rest at its egress price.
        let net = &p.sheet.network;
        let unit = Decimal::from(net.unit.bytes());
        let bytes: u64 = sent.iter().map(|s| s.1).sum();
        let beyond = (Decimal::from(bytes) - net.free_egress_per_month * unit).max(Decimal::ZERO);
        prop_assert_eq!(whole.accrued.bandwidth, beyond * net.egress_per_unit.unwrap() / unit);
        // `status`, which asks the provider too, prices the same measured bytes.
        let asked = crate::spend::account(Some(&p), &recorded, &cloud.inventory(ts(NOW)), ts(NOW));
        prop_assert_eq!(asked.unwrap().accrued.bandwidth, whole.accrued.bandwidth);
    }
}
