//! An account swept for what bills with no running instance to show for it: each resource with
//! what it costs a month and how old it is, the dearest first. Pure: the sheet and the time are
//! arguments.

use jiff::Timestamp;

use super::LinkedResource;
use crate::meter::monthly_after_release;
use crate::money::Money;
use crate::pricing::Sheet;

/// One billable thing the sweep found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepRow {
    pub resource: LinkedResource,
    /// A month of it, by the sheet; `None` when the sheet has no price for it (never zero).
    pub monthly: Option<Money>,
    /// Whole days since the provider says it was created.
    pub age_days: i64,
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
            }
        })
        .collect();
    rows.sort_by(|a, b| match (&a.monthly, &b.monthly) {
        (Some(x), Some(y)) => y.amount.cmp(&x.amount),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    rows
}

/// What the priced rows cost a month together, and how many could not be priced.
#[must_use]
pub fn monthly_total(rows: &[SweepRow]) -> (Option<Money>, usize) {
    let unpriced = rows.iter().filter(|r| r.monthly.is_none()).count();
    let total = rows
        .iter()
        .filter_map(|r| r.monthly)
        .reduce(|a, b| Money::new(a.amount + b.amount, a.currency));
    (total, unpriced)
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
}
