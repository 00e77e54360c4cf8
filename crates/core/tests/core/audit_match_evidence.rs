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
