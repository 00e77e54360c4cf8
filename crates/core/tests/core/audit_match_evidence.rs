//! The refund case's text: the summary names the instances and what was found, the CSV files
//! hold the lines behind it, quoted so a spreadsheet reads them as they are.

use gpumeter_core::audit::evidence::{self, EvidenceAction};
use gpumeter_core::audit::{ChargeKind, Tolerance, audit};
use gpumeter_core::meter::ResourceKind;
use rust_decimal::dec;

use super::audit_match_fixture::{
    at, compute_hours, instance, ledger, line, numbered, resource, usd,
};

#[test]
fn the_case_names_the_release_the_leftover_and_the_lines_behind_it() {
    let rate = dec!(5);
    let inst = instance("i-0case", 0.0, 4.0, true, rate);
    let mut lines = compute_hours("i-0case", 0, 4, rate);
    let mut snap = line(
        Some("snap-0k"),
        ChargeKind::Snapshot,
        6.0,
        7.0,
        usd(dec!(0.25)),
    );
    snap.usage = "USE1-EBS:SnapshotUsage, \"archive\"".into();
    lines.push(snap);
    let lines = numbered(lines);
    let l = ledger(
        vec![inst],
        vec![resource("i-0case", "snap-0k", ResourceKind::Snapshot, 0.0)],
    );
    let report = audit(&lines, &l, (at(0.0), at(24.0)), Tolerance::default());
    let actions = vec![EvidenceAction {
        at: at(4.0),
        instance: Some("i-0case".into()),
        intent: "release".into(),
        request: Some("{\"action\":\"release\"}".into()),
        answer: Some("=release confirmed".into()),
        outcome: Some("confirmed".into()),
    }];

    let summary = evidence::summary(&report, &l, &actions);
    assert!(summary.contains("i-0case"), "{summary}");
    assert!(
        summary.contains(&at(4.0).to_string()),
        "the release time: {summary}"
    );
    assert!(summary.contains("snap-0k"), "{summary}");
    assert!(summary.contains("0.25 USD"), "{summary}");

    let csv = evidence::bill_lines_csv(&report, &lines);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "the header and the snapshot's line: {csv}");
    assert!(rows[1].starts_with(&format!(
        "bill.csv,{},leftover,snap-0k",
        lines[4].source.line
    )));
    assert!(
        rows[1].contains("\"USE1-EBS:SnapshotUsage, \"\"archive\"\"\""),
        "{csv}"
    );

    let acts = evidence::actions_csv(&actions);
    assert!(
        acts.contains(",'=release confirmed,"),
        "a formula is defused: {acts}"
    );
}

/// A charge of `amount` for `id` in hour `h`.
fn hour_of(
    id: &str,
    kind: ChargeKind,
    h: u32,
    amount: rust_decimal::Decimal,
) -> gpumeter_core::audit::BillLine {
    line(Some(id), kind, f64::from(h), f64::from(h + 1), usd(amount))
}

#[test]
fn the_case_asks_back_only_what_a_confirmed_delete_or_release_ended_never_what_still_exists() {
    let rate = dec!(5);
    let inst = instance("i-0rel", 0.0, 4.0, true, rate);
    let mut lines = compute_hours("i-0rel", 0, 4, rate);
    for id in ["snap-0kept", "vol-0deleted", "vol-0system"] {
        lines.push(hour_of(id, ChargeKind::Disk, 6, dec!(0.40)));
    }
    let lines = numbered(lines);
    let mut deleted = resource("i-0rel", "vol-0deleted", ResourceKind::DataDisk, 0.0);
    deleted.gone = Some(at(5.0));
    let mut system = resource("i-0rel", "vol-0system", ResourceKind::SystemDisk, 0.0);
    system.deleted_with_instance = true;
    let l = ledger(
        vec![inst],
        vec![
            resource("i-0rel", "snap-0kept", ResourceKind::Snapshot, 0.0),
            deleted,
            system,
        ],
    );
    let report = audit(&lines, &l, (at(0.0), at(24.0)), Tolerance::default());
    assert_eq!(
        report
            .of(gpumeter_core::audit::FindingKind::Leftover)
            .count(),
        3,
        "{:?}",
        report.findings
    );
    assert_eq!(
        report.disputed().get(gpumeter_core::money::Currency::USD),
        Some(usd(dec!(0.80))),
        "the kept snapshot's charge is not in question"
    );
    let summary = evidence::summary(&report, &l, &[]);
    let asks = &summary[summary.find("## What we ask").unwrap()..];
    assert!(
        asks.contains("vol-0deleted") && asks.contains("vol-0system"),
        "{asks}"
    );
    assert!(
        !asks.contains("snap-0kept"),
        "a refund asked for what still exists: {asks}"
    );
    assert!(
        summary.contains("In question in all: 0.80 USD"),
        "{summary}"
    );
}

#[test]
fn a_refund_already_on_the_bill_counts_whole_against_what_is_in_question() {
    let rate = dec!(5);
    let mut lines = compute_hours("i-0live", 0, 24, rate);
    for h in 6..10 {
        lines.push(hour_of("vol-0gone", ChargeKind::Disk, h, dec!(0.50)));
    }
    // The provider's refund, dated over the whole day as bills date them.
    let mut refund = line(
        Some("vol-0gone"),
        ChargeKind::Other,
        0.0,
        24.0,
        usd(dec!(-1.00)),
    );
    refund.usage = "Refund".into();
    lines.push(refund);
    let lines = numbered(lines);
    let mut vol = resource("i-0live", "vol-0gone", ResourceKind::DataDisk, 0.0);
    vol.gone = Some(at(5.0));
    let l = ledger(vec![instance("i-0live", 0.0, 24.0, false, rate)], vec![vol]);
    let report = audit(&lines, &l, (at(0.0), at(24.0)), Tolerance::default());
    let Some(gpumeter_core::audit::Finding::Leftover(left)) = report.findings.first() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(
        left.refunded.get(gpumeter_core::money::Currency::USD),
        Some(usd(dec!(-1.00)))
    );
    assert_eq!(
        left.amounts.get(gpumeter_core::money::Currency::USD),
        Some(usd(dec!(1.00)))
    );
    assert_eq!(
        report.disputed().get(gpumeter_core::money::Currency::USD),
        Some(usd(dec!(1.00)))
    );
    let summary = evidence::summary(&report, &l, &[]);
    assert!(
        summary.contains("refunded on the bill already: -1.00 USD"),
        "{summary}"
    );
}
