//! An account swept for what bills with no running instance to show for it: each resource with
//! what it costs a month and how old it is, the dearest first. Pure: the sheet and the time are
//! arguments. Several regions swept at once ([`merge_regions`]) may bill in several currencies:
//! they are totalled one currency at a time ([`monthly_totals`]), never added together.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::LinkedResource;
use crate::meter::monthly_after_release;
use crate::money::{Currency, Money};
use crate::pricing::Sheet;

/// One billable thing the sweep found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepRow {
    pub resource: LinkedResource,
    /// A month of it, by the sheet; `None` when the sheet has no price for it (never zero).
    pub monthly: Option<Money>,
    /// Whole days since the provider says it was created.
    pub age_days: i64,
    /// The region it was found in, when several were swept ([`merge_regions`]); `None` for a
    /// sweep of one region or of a provider without regions.
    pub region: Option<String>,
}

/// `found` priced by `sheet` at `now`, the dearest first; what the sheet cannot price comes
/// last, in the provider's order, since it cannot be ranked.
#[must_use]
pub fn rank(found: Vec<LinkedResource>, sheet: Option<&Sheet>, now: Timestamp) -> Vec<SweepRow> {
    let mut rows: Vec<SweepRow> = found
        .into_iter()
        .map(|resource| {
            let monthly = sheet.and_then(|s| {
                monthly_after_release(s, &resource.to_meter()).map(|m| Money::new(m, s.currency))
            });
            let age_days = now.duration_since(resource.created).as_hours() / 24;
            SweepRow {
                resource,
                monthly,
                age_days,
                region: None,
            }
        })
        .collect();
    dearest_first(&mut rows);
    rows
}

/// Priced rows grouped by currency (in code order), the dearest first within each; the unpriced
/// last, in the order they came. Stable, so one currency's rows keep `rank`'s order.
fn dearest_first(rows: &mut [SweepRow]) {
    rows.sort_by(|a, b| match (&a.monthly, &b.monthly) {
        (Some(x), Some(y)) => x
            .currency
            .cmp(&y.currency)
            .then_with(|| y.amount.cmp(&x.amount)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

/// The rows of several regions, each already ranked by its own region's sheet, as one list:
/// each row names its region, the priced ones grouped by currency and the dearest first within
/// a currency, the unpriced last.
#[must_use]
pub fn merge_regions(regions: Vec<(String, Vec<SweepRow>)>) -> Vec<SweepRow> {
    let mut rows: Vec<SweepRow> = regions
        .into_iter()
        .flat_map(|(region, rows)| {
            rows.into_iter().map(move |row| SweepRow {
                region: Some(region.clone()),
                ..row
            })
        })
        .collect();
    dearest_first(&mut rows);
    rows
}

/// What the priced rows cost a month together, and how many could not be priced. `None` when
/// nothing is priced, and when the rows bill in more than one currency, which no one amount can
/// say: [`monthly_totals`] gives one total per currency.
#[must_use]
pub fn monthly_total(rows: &[SweepRow]) -> (Option<Money>, usize) {
    let (totals, unpriced) = monthly_totals(rows);
    let total = match totals.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    (total, unpriced)
}

/// What the priced rows cost a month, one total per currency (in code order, none for a
/// currency no row bills in), and how many rows could not be priced.
#[must_use]
pub fn monthly_totals(rows: &[SweepRow]) -> (Vec<Money>, usize) {
    let unpriced = rows.iter().filter(|r| r.monthly.is_none()).count();
    let mut sums: BTreeMap<Currency, Money> = BTreeMap::new();
    for m in rows.iter().filter_map(|r| r.monthly) {
        let sum = sums.entry(m.currency).or_insert(Money::zero(m.currency));
        *sum = Money::new(sum.amount + m.amount, m.currency);
    }
    (sums.into_values().collect(), unpriced)
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::meter::ResourceKind;
    use crate::pricing::bundled_sheet;

    fn resource(
        id: &str,
        kind: ResourceKind,
        gib: i64,
        days_old: i64,
        now: Timestamp,
    ) -> LinkedResource {
        LinkedResource {
            id: id.into(),
            name: id.into(),
            kind,
            class: Some("gp3".into()),
            size_gib: Decimal::from(gib),
            state: "available".into(),
            created: now - jiff::SignedDuration::from_hours(24 * days_old),
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: crate::cloud::Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    #[test]
    fn the_dearest_comes_first_and_the_unpriced_last_never_as_zero() {
        let now: Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
        let sheet = bundled_sheet("aws-us-east-1").unwrap();
        let found = vec![
            resource("lb-1", ResourceKind::LoadBalancer, 0, 3, now),
            resource("vol-small", ResourceKind::DataDisk, 10, 40, now),
            resource("vol-big", ResourceKind::DataDisk, 2000, 1, now),
            resource("eip-1", ResourceKind::PublicIp, 0, 400, now),
        ];
        let rows = rank(found, Some(sheet), now);
        let ids: Vec<&str> = rows.iter().map(|r| r.resource.id.as_str()).collect();
        assert_eq!(
            ids,
            ["vol-big", "eip-1", "vol-small", "lb-1"],
            "3.65 for the IP, under 1 for 10 GiB"
        );
        // gp3 at 0.08 per GB-month, the sheet's storage price for 2000 GiB.
        let big = rows[0].monthly.unwrap();
        assert_eq!(big.currency, sheet.currency);
        assert!(big.amount > Decimal::from(150), "{big:?}");
        assert_eq!(
            rows[3].monthly, None,
            "the sheet has no load balancer price"
        );
        assert_eq!(
            (rows[0].age_days, rows[1].age_days, rows[2].age_days),
            (1, 400, 40)
        );
        let (total, unpriced) = monthly_total(&rows);
        let sum: Decimal = rows
            .iter()
            .filter_map(|r| r.monthly)
            .map(|m| m.amount)
            .sum();
        assert_eq!(total.map(|t| t.amount), Some(sum));
        assert_eq!(unpriced, 1);
    }

    #[test]
    fn without_a_sheet_nothing_is_priced() {
        let now: Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
        let rows = rank(
            vec![resource("vol-1", ResourceKind::DataDisk, 5, 0, now)],
            None,
            now,
        );
        assert_eq!(rows[0].monthly, None);
        assert_eq!(monthly_total(&rows), (None, 1));
    }

    fn priced(id: &str, amount: i64, currency: &str, now: Timestamp) -> SweepRow {
        SweepRow {
            resource: resource(id, ResourceKind::DataDisk, 1, 0, now),
            monthly: Some(Money::new(Decimal::from(amount), currency.parse().unwrap())),
            age_days: 0,
            region: None,
        }
    }

    #[test]
    fn each_currency_has_its_own_total_and_none_adds_two() {
        let now: Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
        let mut unpriced = priced("vol-x", 0, "USD", now);
        unpriced.monthly = None;
        let rows = vec![
            priced("vol-a", 10, "USD", now),
            priced("d-b", 300, "CNY", now),
            priced("vol-c", 5, "USD", now),
            unpriced,
            priced("d-d", 20, "CNY", now),
        ];
        let (totals, unpriced) = monthly_totals(&rows);
        let shown: Vec<String> = totals
            .iter()
            .map(|t| format!("{} {}", t.currency, t.amount))
            .collect();
        assert_eq!(
            shown,
            ["CNY 320", "USD 15"],
            "one per currency, in code order"
        );
        assert_eq!(unpriced, 1);
        assert_eq!(
            monthly_total(&rows),
            (None, 1),
            "no one amount says what two currencies cost"
        );
        assert_eq!(
            monthly_total(&rows[..1]),
            (
                Some(Money::new(Decimal::from(10), "USD".parse().unwrap())),
                0
            )
        );
        assert_eq!(monthly_totals(&[]), (Vec::new(), 0));
    }

    #[test]
    fn regions_merged_name_their_region_and_rank_within_a_currency() {
        let now: Timestamp = "2026-12-01T00:00:00Z".parse().unwrap();
        let mut lost = priced("vol-lost", 0, "USD", now);
        lost.monthly = None;
        let east = vec![priced("vol-e1", 40, "USD", now), lost];
        let west = vec![
            priced("vol-w1", 90, "USD", now),
            priced("vol-w2", 1, "USD", now),
        ];
        let hangzhou = vec![priced("d-h1", 500, "CNY", now)];
        let rows = merge_regions(vec![
            ("us-east-1".into(), east),
            ("cn-hangzhou".into(), hangzhou),
            ("eu-west-1".into(), west),
        ]);
        let seen: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.resource.id.as_str(), r.region.as_deref().unwrap()))
            .collect();
        assert_eq!(
            seen,
            [
                ("d-h1", "cn-hangzhou"),
                ("vol-w1", "eu-west-1"),
                ("vol-e1", "us-east-1"),
                ("vol-w2", "eu-west-1"),
                ("vol-lost", "us-east-1"),
            ],
            "CNY apart from USD, the dearest first in each, the unpriced last"
        );
        assert!(rank(Vec::new(), None, now).is_empty());
    }
}
