//! The audit's findings on hand-made bills and ledgers: each kind found, with the amount the
//! fixture's own lines add up to.

use gpumeter_core::audit::{
    ChargeKind, Finding, FindingKind, LeftoverWhy, Tolerance, TransferScope, audit,
};
use gpumeter_core::meter::ResourceKind;
use gpumeter_core::money::Currency;
use rust_decimal::Decimal;
use rust_decimal::dec;

use super::audit_match_fixture::{
    after, at, compute_hours, instance, ledger, line, numbered, resource, sum_by, usd, within,
};

const SPAN: (f64, f64) = (0.0, 48.0);

fn span() -> (jiff::Timestamp, jiff::Timestamp) {
    (at(SPAN.0), at(SPAN.1))
}

fn only(report: &gpumeter_core::audit::AuditReport, kind: FindingKind) -> Vec<&Finding> {
    report.of(kind).collect()
}

#[test]
fn a_snapshot_charged_after_its_instance_was_released_is_a_leftover_since_the_release() {
    let rate = dec!(32.77);
    // Released half way through hour 10: hour 10's snapshot line straddles the release.
    let inst = instance("i-0train", 0.0, 10.5, true, rate);
    let release = inst.released.unwrap();
    let mut lines = compute_hours("i-0train", 0, 10, rate);
    let mut half = compute_hours("i-0train", 10, 11, rate);
    half[0].billed = usd(rate / dec!(2));
    half[0].quantity = Some(dec!(0.5));
    lines.extend(half);
    let snap: Vec<_> = (0..20)
        .map(|h| {
            line(
                Some("snap-0a"),
                ChargeKind::Snapshot,
                f64::from(h),
                f64::from(h + 1),
                usd(dec!(0.0125)),
            )
        })
        .collect();
    lines.extend(snap.clone());
    let lines = numbered(lines);
    let ledger = ledger(
        vec![inst],
        vec![resource("i-0train", "snap-0a", ResourceKind::Snapshot, 0.0)],
    );

    let report = audit(&lines, &ledger, span(), Tolerance::default());

    let left = only(&report, FindingKind::Leftover);
    assert_eq!(left.len(), 1, "{:?}", report.findings);
    let Finding::Leftover(l) = left[0] else {
        unreachable!()
    };
    assert_eq!(l.resource, "snap-0a");
    assert_eq!(l.why, LeftoverWhy::AfterRelease);
    assert_eq!(l.since, release);
    let expected = sum_by(&snap, |s| after(s, release));
    assert_eq!(l.amounts.get(Currency::USD), Some(usd(expected)));
    assert_eq!(l.lines.len(), 10, "hours 10 to 19 charge after the release");
    // The compute up to the release matches the meter: no mismatch.
    assert_eq!(
        only(&report, FindingKind::Mismatch).len(),
        0,
        "{:?}",
        report.findings
    );
}

#[test]
fn a_resource_of_an_instance_the_ledger_no_longer_holds_is_a_leftover_from_its_first_charge() {
    let lines = numbered(
        (5..9)
            .map(|h| {
                line(
                    Some("vol-0old"),
                    ChargeKind::Disk,
                    f64::from(h),
                    f64::from(h + 1),
                    usd(dec!(0.11)),
                )
            })
            .collect(),
    );
    let ledger = ledger(
        Vec::new(),
        vec![resource(
            "i-0gone",
            "vol-0old",
            ResourceKind::DataDisk,
            -100.0,
        )],
    );
    let report = audit(&lines, &ledger, span(), Tolerance::default());
    let Some(Finding::Leftover(l)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(l.why, LeftoverWhy::InstanceGone);
    assert_eq!(l.since, lines[0].start);
    assert_eq!(
        l.amounts.get(Currency::USD),
        Some(usd(sum_by(&lines, |_| Decimal::ONE)))
    );
    assert_eq!(
        report.findings.len(),
        1,
        "the disk is known, so it is not unexplained too"
    );
}

#[test]
fn a_resource_still_with_its_running_instance_is_no_leftover() {
    let rate = dec!(2);
    let mut lines = compute_hours("i-0run", 0, 48, rate);
    lines.extend((0..48).map(|h| {
        line(
            Some("vol-0data"),
            ChargeKind::Disk,
            f64::from(h),
            f64::from(h + 1),
            usd(dec!(0.2)),
        )
    }));
    let ledger = ledger(
        vec![instance("i-0run", 0.0, 48.0, false, rate)],
        vec![resource("i-0run", "vol-0data", ResourceKind::DataDisk, 0.0)],
    );
    let report = audit(&numbered(lines), &ledger, span(), Tolerance::default());
    assert!(report.agrees(), "{:?}", report.findings);
}

#[test]
fn inter_region_and_inter_zone_transfer_is_summed_per_pair_with_the_instance_that_ran() {
    let rate = dec!(4);
    let mut transfer = Vec::new();
    for (h, gb, scope, to) in [
        (1, dec!(120), TransferScope::InterRegion, Some("us-west-2")),
        (2, dec!(80), TransferScope::InterRegion, Some("us-west-2")),
        (3, dec!(10), TransferScope::InterZone, None),
    ] {
        let mut l = line(
            None,
            ChargeKind::Transfer { scope },
            f64::from(h),
            f64::from(h + 1),
            usd(gb * dec!(0.02)),
        );
        l.to_region = to.map(str::to_string);
        l.quantity = Some(gb);
        l.unit = Some("GB".into());
        transfer.push(l);
    }
    let mut lines = compute_hours("i-0gpu", 0, 6, rate);
    lines.extend(transfer.clone());
    let ledger = ledger(vec![instance("i-0gpu", 0.0, 6.0, false, rate)], Vec::new());
    let report = audit(&numbered(lines), &ledger, span(), Tolerance::default());

    let found = only(&report, FindingKind::Transfer);
    assert_eq!(found.len(), 2, "{:?}", report.findings);
    let Finding::Transfer(region) = found[0] else {
        unreachable!()
    };
    assert_eq!(region.scope, TransferScope::InterRegion);
    assert_eq!(region.from_region.as_deref(), Some("us-east-1"));
    assert_eq!(region.to_region.as_deref(), Some("us-west-2"));
    assert_eq!(
        region.amounts.get(Currency::USD),
        Some(usd(sum_by(&transfer[..2], |_| Decimal::ONE)))
    );
    assert_eq!(
        region.quantity,
        Some((dec!(120) + dec!(80), "GB".to_string()))
    );
    assert_eq!(region.instances, vec!["i-0gpu".to_string()]);
    let Finding::Transfer(zone) = found[1] else {
        unreachable!()
    };
    assert_eq!(zone.scope, TransferScope::InterZone);
    assert_eq!(zone.amounts.get(Currency::USD), Some(transfer[2].billed));
    assert_eq!(
        only(&report, FindingKind::Unexplained).len(),
        0,
        "{:?}",
        report.findings
    );
}

#[test]
fn two_instances_of_one_sku_at_once_are_an_overlap_priced_from_the_later_ones_lines() {
    let rate = dec!(32.77);
    // The first runs hours 0 to 10, the second 6 to 20: four hours together.
    let first = instance("i-0a", 0.0, 10.0, true, rate);
    let second = instance("i-0b", 6.0, 20.0, false, rate);
    let mut lines = compute_hours("i-0a", 0, 10, rate);
    let later = compute_hours("i-0b", 6, 20, rate);
    lines.extend(later.clone());
    let report = audit(
        &numbered(lines),
        &ledger(vec![second, first], Vec::new()),
        span(),
        Tolerance::default(),
    );

    let found = only(&report, FindingKind::Overlap);
    assert_eq!(found.len(), 1, "{:?}", report.findings);
    let Finding::Overlap(o) = found[0] else {
        unreachable!()
    };
    assert_eq!((o.first.as_str(), o.second.as_str()), ("i-0a", "i-0b"));
    assert_eq!((o.from, o.until), (at(6.0), at(10.0)));
    let expected = sum_by(&later, |l| within(l, at(6.0), at(10.0)));
    assert_eq!(o.amounts.get(Currency::USD), Some(usd(expected)));
}

#[test]
fn instances_of_different_skus_at_once_are_no_overlap() {
    let mut a = instance("i-0a", 0.0, 10.0, false, dec!(1));
    a.sku = Some("g5.xlarge".into());
    let b = instance("i-0b", 0.0, 10.0, false, dec!(1));
    let report = audit(
        &[],
        &ledger(vec![a, b], Vec::new()),
        span(),
        Tolerance::default(),
    );
    assert_eq!(only(&report, FindingKind::Overlap).len(), 0);
}

#[test]
fn a_line_for_a_resource_the_ledger_never_saw_is_unexplained_but_tax_and_credits_are_not() {
    let stranger = line(
        Some("i-0stranger"),
        ChargeKind::Compute,
        1.0,
        2.0,
        usd(dec!(7.5)),
    );
    let tax = line(None, ChargeKind::Other, 0.0, 48.0, usd(dec!(12)));
    let credit = line(
        Some("i-0stranger"),
        ChargeKind::Compute,
        1.0,
        2.0,
        usd(dec!(-7.5)),
    );
    let outside = line(
        Some("i-0stranger"),
        ChargeKind::Compute,
        50.0,
        51.0,
        usd(dec!(9)),
    );
    let lines = numbered(vec![stranger.clone(), tax, credit, outside]);
    let report = audit(
        &lines,
        &ledger(Vec::new(), Vec::new()),
        span(),
        Tolerance::default(),
    );
    assert_eq!(report.findings.len(), 1, "{:?}", report.findings);
    let Finding::Unexplained(u) = &report.findings[0] else {
        unreachable!()
    };
    assert_eq!(u.resource.as_deref(), Some("i-0stranger"));
    assert_eq!(u.amounts.get(Currency::USD), Some(stranger.billed));
    assert_eq!(u.lines.as_slice(), [0]);
    assert_eq!(report.lines_in_span, 3);
}

#[test]
fn amounts_in_two_currencies_are_never_added_together() {
    let a = line(Some("x-1"), ChargeKind::Disk, 1.0, 2.0, usd(dec!(1)));
    let mut b = a.clone();
    b.billed = gpumeter_core::money::Money::new(dec!(7), Currency::CNY);
    let report = audit(
        &numbered(vec![a, b]),
        &ledger(Vec::new(), Vec::new()),
        span(),
        Tolerance::default(),
    );
    let totals = report.totals();
    assert_eq!(totals.len(), 1);
    let amounts = &totals[0].1;
    assert_eq!(amounts.get(Currency::USD), Some(usd(dec!(1))));
    assert_eq!(amounts.get(Currency::CNY).map(|m| m.amount), Some(dec!(7)));
}
