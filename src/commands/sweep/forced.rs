//! The account's shut-down instances its platform will release on its own (AutoDL after 15
//! days shut down, erasing their disks): for these renters a stopped instance is the normal
//! state between sessions, and a sweep of the account is where a forgotten one is found
//! before its data is lost. Read only where the platform (or the sheet) has such a rule.

use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use crate::provider::{
    Discovered, ForcedReleaseJson, Provider, forced_release_of, kept_stopped_for,
};
use crate::t;

/// One shut-down instance heading for its platform's release.
#[derive(Debug, Clone, Serialize)]
pub struct Pending {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub release: ForcedReleaseJson,
}

/// The shut-down instances of the account `provider` lists that its platform will release,
/// the soonest first; `Ok(None)` where the platform keeps a stopped instance until told, so
/// nothing is asked. `sheet_days` is the sheet's `released_after_stopped_days`.
pub fn read(
    provider: &dyn Provider,
    sheet_days: Option<u32>,
    now: Timestamp,
) -> Result<Option<Vec<Pending>>, String> {
    kept_stopped_for(sheet_days, provider.name())
        .map(|_| {
            let what = t!("progress-listing-stopped", provider = provider.name());
            let listed = super::super::progress::run(&what, provider.instances())
                .map_err(|f| f.message)?
                .map_err(|e| e.to_string())?;
            Ok(pending(&listed, sheet_days, now))
        })
        .transpose()
}

/// `listed`'s instances a forced release is heading for, the soonest first.
pub fn pending(listed: &[Discovered], sheet_days: Option<u32>, now: Timestamp) -> Vec<Pending> {
    let mut out: Vec<Pending> = listed
        .iter()
        .filter_map(|d| {
            Some(Pending {
                id: d.instance.id.clone(),
                name: d.instance.name.clone(),
                release: forced_release_of(&d.inventory(), sheet_days, now)?,
            })
        })
        .collect();
    out.sort_by_key(|p| p.release.instant);
    out
}

/// The lines under the sweep's rows: each instance, when its platform releases it and what
/// that erases; nothing when none is heading for one.
pub fn text(pending: &[Pending], provider: &str, now: Timestamp, tz: &TimeZone) -> String {
    let mut out = String::new();
    if pending.is_empty() {
        return out;
    }
    let _ = writeln!(out, "{}", t!("sweep-forced-heading", provider = provider));
    for p in pending {
        let r = &p.release;
        let when = if r.remaining_s <= 0 {
            t!("sweep-forced-due", days = r.after_days)
        } else {
            t!(
                "sweep-forced-in",
                left =
                    crate::ui::text::short_duration(jiff::SignedDuration::from_secs(r.remaining_s)),
                at = gpumeter_core::zone::deadline_label(r.instant, now, tz),
                days = r.after_days
            )
        };
        let name = gpumeter_core::text::one_line(&p.name, 48);
        let _ = writeln!(
            out,
            "  {} {name}: {when}; {}",
            gpumeter_core::text::one_line(&p.id, 48),
            t!("sweep-forced-erases", erases = r.erases.join(", "))
        );
    }
    out
}
