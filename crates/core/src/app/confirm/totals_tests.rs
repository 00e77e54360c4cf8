//! The dialogs' monthly totals: an unpriced line is named, never added as zero, and a stop
//! counts the compute that keeps billing while stopped.

use rust_decimal::dec;

use super::*;
use crate::cloud::snapshots::test_snapshot as snap;
use crate::meter::BillingMode;
use crate::meter::fixture::example_sheet;
use crate::pricing::StopPolicy;
use crate::spend::PriceSource;

fn pricing(sheet: Sheet) -> Pricing {
    let sku = sheet.skus[0].clone();
    Pricing {
        terms: ComputeTerms::from_sheet(&sheet, &sku, BillingMode::OnDemand, 1).unwrap(),
        source: PriceSource::Sheet(sheet.id.clone()),
        sheet,
        sku,
        mode: BillingMode::OnDemand,
        licenses: None,
        bandwidth_mbps: None,
    }
}

/// A 100 GiB snapshot (5.00 USD a month on the example sheet) and a load balancer.
fn inventory() -> Inventory {
    let mut snapshot = snap("snap-1", 100, None);
    snapshot.size_gib = dec!(100);
    let mut lb = snap("lb-1", 100, None);
    lb.kind = ResourceKind::LoadBalancer;
    lb.size_gib = Decimal::ZERO;
    Inventory {
        instance: None,
        resources: vec![snapshot, lb],
        deadline: None,
    }
}

#[test]
fn the_release_total_with_an_unpriced_survivor_is_a_lower_bound_naming_it() {
    let mut sheet = example_sheet();
    sheet.extras.load_balancer_per_hour = None;
    let c = Confirm::build(
        Action::Release,
        Some(&inventory()),
        Some(&pricing(sheet)),
        None,
    );
    let total = c.survivors_monthly().expect("a sheet prices the snapshot");
    assert_eq!(total.known, Money::new(dec!(5), Currency::USD));
    assert_eq!(total.unknown.len(), 1);
    assert!(total.unknown[0].contains("lb-1"), "{:?}", total.unknown);
    let lines = c.summary_lines();
    assert!(
        lines.contains(&"  total after: ≥ 5.00 USD + 1 unknown/month".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn with_every_survivor_unpriced_the_total_is_never_zero() {
    let mut sheet = example_sheet();
    sheet.extras.load_balancer_per_hour = None;
    sheet.storage.snapshot = None;
    let c = Confirm::build(
        Action::Release,
        Some(&inventory()),
        Some(&pricing(sheet)),
        None,
    );
    let text = Confirm::monthly_text(c.survivors_monthly().as_ref());
    assert_eq!(text, "≥ 0.00 USD + 2 unknown");
}

#[test]
fn a_stop_on_a_sheet_that_keeps_charging_counts_compute_every_hour_of_the_month() {
    let mut sheet = example_sheet();
    sheet.billing.stop_policy = StopPolicy::KeepCharging;
    let p = pricing(sheet);
    let ComputeTerms::Hourly { per_hour } = p.terms else {
        panic!("the example sheet is hourly on demand");
    };
    let c = Confirm::build(Action::Stop, Some(&inventory()), Some(&p), None);
    let compute = &c.survivors[0];
    assert!(
        compute.label.starts_with("compute while stopped (100%"),
        "{compute:?}"
    );
    assert_eq!(compute.monthly, Some(per_hour * dec!(730)));
    let total = c.survivors_monthly().unwrap();
    let lb = dec!(0.025) * dec!(730);
    assert_eq!(total.known.amount, per_hour * dec!(730) + dec!(5) + lb);
    assert!(total.is_complete());
}

#[test]
fn a_stop_that_ends_compute_billing_adds_no_compute_line() {
    let c = Confirm::build(
        Action::Stop,
        Some(&inventory()),
        Some(&pricing(example_sheet())),
        None,
    );
    assert!(
        c.survivors.iter().all(|l| !l.label.starts_with("compute")),
        "{:?}",
        c.survivors
    );
}

#[test]
fn a_stop_with_no_sheet_names_compute_as_unknown() {
    let c = Confirm::build(Action::Stop, Some(&inventory()), None, None);
    assert_eq!(c.survivors[0].monthly, None);
    assert!(c.survivors[0].label.starts_with("compute while stopped"));
}

/// The release dialog said on the command line: its title with a full-width colon and the
/// data others can read in Chinese; the same lines as before in English.
#[test]
fn the_release_summary_reads_in_chinese_with_its_own_punctuation() {
    use crate::cloud::Sharing;
    use crate::i18n::{Lang, scoped};
    let mut found = inventory();
    found.resources[0].exposure.shared = Sharing::Public;
    let build = || {
        Confirm::build(
            Action::Release,
            Some(&found),
            Some(&pricing(example_sheet())),
            None,
        )
        .summary_lines()
    };
    let english = scoped(Lang::En, build);
    assert!(
        english[0].starts_with("Release the instance: "),
        "{english:#?}"
    );
    assert!(
        english.iter().any(|l| l
            .trim_start()
            .starts_with("CRITICAL snapshot snap-1: public")),
        "{english:#?}"
    );
    let chinese = scoped(Lang::ZhCn, build);
    assert!(chinese[0].starts_with("释放实例："), "{chinese:#?}");
    assert!(!chinese[0].contains(": "), "{chinese:#?}");
    assert!(
        chinese
            .iter()
            .any(|l| l.trim_start().starts_with("严重 快照 snap-1：公开")),
        "{chinese:#?}"
    );
    for word in ["CRITICAL", "public", "Release"] {
        assert!(
            !chinese.iter().any(|l| l.contains(word)),
            "{word}: {chinese:#?}"
        );
    }
}
