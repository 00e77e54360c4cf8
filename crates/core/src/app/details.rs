//! What `Enter` shows about the selected linked resource: what it is, when it was made, what it
//! costs a month from the sheet, why it outlives a release, and what of its data others can
//! read. Computed here, once when it opens and again when the inventory or the clock moves, so
//! the overlay only draws it.

use jiff::{SignedDuration, Timestamp};

use super::state::App;
use crate::cloud::{Finding, LinkedResource, Sharing, findings_of};
use crate::meter::{ResourceKind, monthly_after_release};
use crate::money::Money;

/// One linked resource, told in rows of label and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    pub id: String,
    /// `snapshot snap-0a (nightly-1)`.
    pub title: String,
    /// Label and value, in the order shown.
    pub rows: Vec<(&'static str, String)>,
    /// The sheet has no monthly price for it (or there is no sheet): the price row says so.
    pub unpriced: bool,
    /// What of its data others can read, the gravest first.
    pub findings: Vec<Finding>,
    /// The inventory no longer lists it (deleted since the overlay opened).
    pub gone: bool,
    /// It outlives a release: the row that says so is drawn as a leftover.
    pub survives: bool,
}

impl Details {
    /// The details of the resource at `index` in the latest inventory, as things stand in `app`.
    pub fn of(app: &App, index: usize) -> Option<Details> {
        let r = app.cloud.inventory.as_ref()?.resources.get(index)?;
        Some(Details::build(app, r))
    }

    /// Computed again for the same resource: its row in a fresh inventory, at a later instant.
    /// A resource no longer listed keeps its last rows and says it is gone.
    #[must_use]
    pub fn refreshed(&self, app: &App) -> Details {
        let found = app
            .cloud
            .inventory
            .as_ref()
            .and_then(|i| i.resources.iter().find(|r| r.id == self.id));
        match found {
            Some(r) => Details::build(app, r),
            None => Details {
                gone: true,
                ..self.clone()
            },
        }
    }

    fn build(app: &App, r: &LinkedResource) -> Details {
        let tz = app.spend.time_zone.clone();
        let created = crate::t!(
            "details-created",
            at = r
                .created
                .to_zoned_datetime(tz)
                .strftime("%Y-%m-%d %H:%M %Z")
                .to_string(),
            age = short_age(app.now, r.created)
        );
        let size = if r.size_gib.is_zero() {
            "—".to_string()
        } else {
            format!("{} GiB", r.size_gib.round_dp(1).normalize())
        };
        let pricing = app.spend.pricing.as_ref();
        let monthly = pricing.and_then(|p| {
            monthly_after_release(&p.sheet, &r.to_meter()).map(|m| Money::new(m, p.sheet.currency))
        });
        let per_month = match (monthly, pricing) {
            (Some(m), _) => m.to_string(),
            (None, Some(p)) => crate::t!("details-unpriced-sheet", sheet = p.sheet.id.clone()),
            (None, None) => crate::t!("details-unpriced").into_owned(),
        };
        let or_dash = |s: &str| {
            if s.is_empty() {
                "—".to_string()
            } else {
                s.to_string()
            }
        };
        let mut rows = vec![
            ("id", r.id.clone()),
            ("name", or_dash(&r.name)),
            ("kind", r.kind.shown().into_owned()),
            ("created", created),
            ("size", size),
            ("class", or_dash(r.class.as_deref().unwrap_or(""))),
            ("state", or_dash(&r.state)),
            (
                "attached to",
                r.attached_to
                    .clone()
                    .unwrap_or_else(|| crate::t!("details-attached-to-nothing").into_owned()),
            ),
            ("per month", per_month),
            ("on release", survives(r)),
        ];
        if let Some(data) = data(r) {
            rows.push(("data", data));
        }
        if let Some(image) = &r.backs_image {
            rows.push((
                "backs image",
                crate::t!("details-backs-image", image = image.clone()),
            ));
        }
        Details {
            id: r.id.clone(),
            title: format!("{} {}", r.kind.shown(), r.id),
            rows,
            unpriced: monthly.is_none(),
            findings: findings_of(r),
            gone: false,
            survives: !r.deleted_with_instance,
        }
    }
}

/// Whether its data is encrypted and who else may read it, as the provider says; `None` for
/// a kind that holds no data (an address, a load balancer).
fn data(r: &LinkedResource) -> Option<String> {
    if matches!(r.kind, ResourceKind::PublicIp | ResourceKind::LoadBalancer) {
        return None;
    }
    let encrypted = match r.exposure.encrypted {
        Some(true) => crate::t!("details-encrypted"),
        Some(false) => crate::t!("details-unencrypted"),
        None => crate::t!("details-encryption-not-said"),
    };
    let shared = match &r.exposure.shared {
        Sharing::Unknown => crate::t!("details-sharing-not-said").into_owned(),
        Sharing::Private => crate::t!("details-private").into_owned(),
        Sharing::Accounts(a) => crate::t!("details-shared-with", count = a.len()),
        Sharing::Public => crate::t!("details-public").into_owned(),
    };
    Some(crate::t!(
        "details-data",
        encrypted = encrypted,
        shared = shared
    ))
}

/// Why a resource outlives a release, or that it does not.
fn survives(r: &LinkedResource) -> String {
    if r.deleted_with_instance {
        return crate::t!("details-deleted-with-instance").into_owned();
    }
    let why = match r.kind {
        ResourceKind::SystemDisk | ResourceKind::DataDisk => crate::t!("details-why-disk"),
        ResourceKind::Snapshot => crate::t!("details-why-snapshot"),
        ResourceKind::Image => crate::t!("details-why-image"),
        ResourceKind::PublicIp => crate::t!("details-why-public-ip"),
        ResourceKind::LoadBalancer => crate::t!("details-why-load-balancer"),
        ResourceKind::NetworkVolume => crate::t!("details-why-network-volume"),
        ResourceKind::StoppedInstance => crate::t!("details-why-stopped-instance"),
    };
    crate::t!("details-survives", why = why)
}

/// `2d2h`, `3h20m`, `45m`, `30s`: how long ago `then` was, in at most two units.
pub fn short_age(now: Timestamp, then: Timestamp) -> String {
    let s = now
        .duration_since(then)
        .max(SignedDuration::ZERO)
        .as_secs()
        .unsigned_abs();
    let (days, hours, minutes) = (s / 86_400, s / 3600 % 24, s / 60 % 60);
    if days > 0 {
        format!("{days}d{hours}h")
    } else if hours > 0 {
        format!("{hours}h{minutes:02}m")
    } else if minutes > 0 {
        format!("{minutes}m")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_use_two_units_and_never_go_negative() {
        let now = Timestamp::from_second(1_000_000).unwrap();
        let ago = |s: i64| short_age(now, Timestamp::from_second(1_000_000 - s).unwrap());
        assert_eq!(ago(2 * 86_400 + 2 * 3600 + 59), "2d2h");
        assert_eq!(ago(3 * 3600 + 20 * 60), "3h20m");
        assert_eq!(ago(45 * 60 + 5), "45m");
        assert_eq!(ago(30), "30s");
        assert_eq!(ago(-30), "0s");
    }
}
