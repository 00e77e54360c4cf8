//! Each instance's compute against the meter, and the cause given for a difference; and the
//! leftovers of a released instance's own hours and of a disk seen deleted.

use gpumeter_core::audit::{
    Cause, ChargeKind, Finding, FindingKind, LeftoverWhy, Tolerance, audit,
};
use gpumeter_core::meter::ResourceKind;
use gpumeter_core::money::Currency;
use rust_decimal::{Decimal, dec};

use super::audit_match_fixture::{
    at, compute_hours, instance, ledger, line, numbered, resource, sum_by, usd,
};

fn span() -> (jiff::Timestamp, jiff::Timestamp) {
    (at(0.0), at(48.0))
}

#[test]
fn a_released_instances_hours_after_its_release_are_its_own_leftover() {
    let rate = dec!(8);
    let lines = numbered(compute_hours("i-0rel", 0, 12, rate));
    let inst = instance("i-0rel", 0.0, 9.0, true, rate);
    let report = audit(
        &lines,
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let left: Vec<&Finding> = report.of(FindingKind::Leftover).collect();
    let Some(Finding::Leftover(l)) = left.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!((l.resource.as_str(), l.kind), ("i-0rel", None));
    assert_eq!(l.since, at(9.0));
    assert_eq!(
        l.amounts.get(Currency::USD),
        Some(usd(sum_by(&lines[9..], |_| Decimal::ONE)))
    );
    assert_eq!(
        report.of(FindingKind::Mismatch).count(),
        0,
        "{:?}",
        report.findings
    );
}

#[test]
fn a_disk_charged_after_it_was_seen_deleted_is_a_leftover_from_then() {
    let rate = dec!(2);
    let mut lines = compute_hours("i-0live", 0, 24, rate);
    let disk: Vec<_> = (0..24)
        .map(|h| {
            line(
                Some("vol-0del"),
                ChargeKind::Disk,
                f64::from(h),
                f64::from(h + 1),
                usd(dec!(0.3)),
            )
        })
        .collect();
    lines.extend(disk.clone());
    let mut vol = resource("i-0live", "vol-0del", ResourceKind::DataDisk, 0.0);
    vol.gone = Some(at(20.0));
    let l = ledger(vec![instance("i-0live", 0.0, 24.0, false, rate)], vec![vol]);
    let report = audit(&numbered(lines), &l, span(), Tolerance::default());
    let Some(Finding::Leftover(left)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(left.why, LeftoverWhy::AfterGone);
    assert_eq!(left.since, at(20.0));
    assert_eq!(
        left.amounts.get(Currency::USD),
        Some(usd(sum_by(&disk[20..], |_| Decimal::ONE)))
    );
    assert_eq!(report.findings.len(), 1, "{:?}", report.findings);
}

#[test]
fn hours_beyond_a_step_per_line_at_the_sheets_rate_are_hours_the_meter_did_not_see() {
    let rate = dec!(3);
    let lines = numbered(compute_hours("i-0h", 0, 20, rate));
    let mut inst = instance("i-0h", 0.0, 12.0, false, rate);
    inst.last_seen = at(20.0);
    let metered = inst.metered.unwrap();
    let report = audit(
        &lines,
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let Some(Finding::Mismatch(m)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    let bill = sum_by(&lines, |_| Decimal::ONE);
    assert_eq!(m.difference, Some(usd(bill - metered.amount)));
    assert_eq!(
        m.cause,
        Cause::Hours {
            bill_hours: Decimal::from(lines.len()),
            meter_hours: metered.amount / rate
        }
    );
}

#[test]
fn compute_the_meter_billed_and_the_bill_lacks_is_not_on_the_bill() {
    let inst = instance("i-0none", 0.0, 5.0, false, dec!(4));
    let metered = inst.metered.unwrap();
    let report = audit(
        &[],
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let Some(Finding::Mismatch(m)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(
        (m.cause, m.billed, m.metered),
        (Cause::NotOnBill, None, Some(metered))
    );
    let totals = report.totals();
    assert_eq!(totals[0].1.get(Currency::USD), Some(usd(-metered.amount)));
    assert!(
        report.disputed().is_empty(),
        "a bill below the meter is no money to ask back"
    );
}

#[test]
fn a_bill_at_another_rate_is_a_mismatch_from_a_rate_change() {
    let (sheet, billed) = (dec!(32.77), dec!(40.96));
    let lines = numbered(compute_hours("i-0x", 0, 24, billed));
    let inst = instance("i-0x", 0.0, 24.0, false, sheet);
    let metered = inst.metered.unwrap();
    let report = audit(
        &lines,
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let Some(Finding::Mismatch(m)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    let bill = sum_by(&lines, |_| Decimal::ONE);
    assert_eq!(m.billed, Some(usd(bill)));
    assert_eq!(m.difference, Some(usd(bill - metered.amount)));
    assert_eq!(
        m.cause,
        Cause::RateChange {
            bill: usd(bill / dec!(24)),
            sheet: usd(sheet)
        }
    );
}

#[test]
fn hours_off_by_less_than_a_step_per_line_are_a_rounding_rule() {
    let rate = dec!(10);
    // The meter saw 23.5 h; the bill rounds each hour up and charges 24 whole hours.
    let lines = numbered(compute_hours("i-0r", 0, 24, rate));
    let mut inst = instance("i-0r", 0.0, 23.5, false, rate);
    inst.last_seen = at(24.0);
    inst.step_seconds = Some(3600);
    let report = audit(
        &lines,
        &ledger(vec![inst.clone()], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let Some(Finding::Mismatch(m)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert!(matches!(m.cause, Cause::Rounding { .. }), "{:?}", m.cause);
    assert_eq!(
        m.difference,
        Some(usd(
            sum_by(&lines, |_| Decimal::ONE) - inst.metered.unwrap().amount
        ))
    );
}

#[test]
fn a_bill_within_the_tolerance_agrees_and_one_beyond_it_does_not() {
    let rate = dec!(10);
    let inst = instance("i-0ok", 0.0, 24.0, false, rate);
    let metered = inst.metered.unwrap().amount;
    let allowed = Tolerance::default().allowed(metered);
    let mut lines = numbered(compute_hours("i-0ok", 0, 24, rate));
    lines[0].billed = usd(lines[0].billed.amount + allowed);
    let l = ledger(vec![inst], Vec::new());
    assert!(audit(&lines, &l, span(), Tolerance::default()).agrees());
    lines[0].billed = usd(lines[0].billed.amount + dec!(0.01));
    assert!(!audit(&lines, &l, span(), Tolerance::default()).agrees());
    assert!(audit(&lines, &l, span(), Tolerance::percent(dec!(5))).agrees());
}

#[test]
fn compute_the_sheet_has_no_price_for_is_a_missing_line_on_the_sheet() {
    let lines = numbered(compute_hours("i-0np", 0, 3, dec!(3)));
    let mut inst = instance("i-0np", 0.0, 3.0, false, dec!(3));
    inst.metered = None;
    inst.rate_per_hour = None;
    let report = audit(
        &lines,
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    let Some(Finding::Mismatch(m)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(m.cause, Cause::MissingOnSheet);
    assert_eq!(m.billed, Some(usd(sum_by(&lines, |_| Decimal::ONE))));
    assert_eq!(m.difference, None, "unknown is not zero");
}

/// The one instance's mismatch when the bill charges `billed_hours` at `rate` and the meter
/// saw `metered_hours`.
fn hours_mismatch(billed_hours: u32, metered_hours: f64) -> gpumeter_core::audit::Mismatch {
    let rate = dec!(3);
    let lines = numbered(compute_hours("i-0side", 0, billed_hours, rate));
    let mut inst = instance("i-0side", 0.0, metered_hours, false, rate);
    inst.last_seen = at(24.0);
    let report = audit(
        &lines,
        &ledger(vec![inst], Vec::new()),
        span(),
        Tolerance::default(),
    );
    match report.findings.as_slice() {
        [Finding::Mismatch(m)] => (**m).clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bill_above_the_meter_is_put_down_to_hours_the_meter_did_not_see() {
    let m = hours_mismatch(20, 12.0);
    assert!(m.difference.unwrap().amount.is_sign_positive(), "{m:?}");
    assert_eq!(
        m.cause.label(),
        "hours the meter did not see: the bill charges more hours than the meter saw"
    );
}

#[test]
fn a_bill_below_the_meter_is_put_down_to_hours_the_bill_does_not_charge() {
    let m = hours_mismatch(12, 20.0);
    assert!(m.difference.unwrap().amount.is_sign_negative(), "{m:?}");
    assert_eq!(
        m.cause.label(),
        "hours the bill does not charge: the meter saw more hours than the bill charges"
    );
}

#[test]
fn a_rate_change_says_which_rate_is_higher() {
    for (sheet, billed, side) in [
        (dec!(32.77), dec!(40.96), "above"),
        (dec!(40.96), dec!(32.77), "below"),
    ] {
        let lines = numbered(compute_hours("i-0r", 0, 24, billed));
        let inst = instance("i-0r", 0.0, 24.0, false, sheet);
        let report = audit(
            &lines,
            &ledger(vec![inst], Vec::new()),
            span(),
            Tolerance::default(),
        );
        let Some(Finding::Mismatch(m)) = report.findings.first() else {
            panic!("{:?}", report.findings)
        };
        assert_eq!(
            m.cause.label(),
            format!("a rate change: the bill's rate is {side} the sheet's")
        );
    }
}
