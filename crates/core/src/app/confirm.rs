//! The confirmation a destructive key opens: the target, what it costs per hour, what the action
//! deletes and what survives with its monthly cost. "Cancel" is the default choice.

use std::borrow::Cow;

use rust_decimal::Decimal;
use std::fmt::Write as _;

use super::state::App;
use crate::cloud::{Action, Finding, Inventory, Kept, LinkedResource, SnapshotPlan, findings};
use crate::meter::{ComputeTerms, ResourceKind, monthly_after_release};
use crate::money::{Currency, Money, PartialTotal};
use crate::pricing::Sheet;
use crate::spend::Pricing;
use crate::t;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Cancel,
    Confirm,
}

/// One line of the dialog: a resource and its monthly cost (`None` when unpriced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmLine {
    pub label: String,
    pub monthly: Option<Decimal>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub action: Action,
    pub title: String,
    /// The instance the action targets: id and name.
    pub target: String,
    /// What the instance costs per hour now, all lines together.
    pub cost_per_hour: Option<Money>,
    pub deleted: Vec<ConfirmLine>,
    pub survivors: Vec<ConfirmLine>,
    pub currency: Option<Currency>,
    /// What happens to billing, in one or two sentences.
    pub note: String,
    /// Data left readable by others ([`crate::cloud::findings`]), one line each.
    pub exposed: Vec<String>,
    pub choice: Choice,
    /// For `C` in the cockpit: the snapshots to pick from; the lists and the action follow it.
    pub pick: Option<super::pick::SnapshotPick>,
}

impl Confirm {
    /// What survives costs a month: the priced lines, and each unpriced one named, never read
    /// as zero. `None` when no sheet prices anything here.
    pub fn survivors_monthly(&self) -> Option<PartialTotal> {
        total(self.currency?, &self.survivors)
    }

    /// A monthly total as the dialogs show it: `12.00 CNY`, `≥ 12.00 CNY + 3 unknown`, or
    /// `price unknown` with no currency.
    pub fn monthly_text(total: Option<&PartialTotal>) -> String {
        let Some(t) = total else {
            return t!("confirm-price-unknown").into_owned();
        };
        t.with_currency()
    }

    /// The dialog as plain lines, for the command line's prompt and `--dry-run`.
    pub fn summary_lines(&self) -> Vec<String> {
        let money = |d: Option<Decimal>| match (d, self.currency) {
            (Some(d), Some(c)) => Money::new(d, c).to_string(),
            _ => t!("confirm-price-unknown").into_owned(),
        };
        let unknown = t!("confirm-price-unknown");
        let mut out = vec![t!(
            "summary-title",
            title = self.title.as_str(),
            target = self.target.as_str()
        )];
        if let Some(cost) = self.cost_per_hour {
            let cost = cost.to_string();
            out.push(format!("  {}", t!("summary-costs-now", cost = cost)));
        }
        if !self.deleted.is_empty() {
            out.push(format!("  {}", t!("summary-deleted")));
            if matches!(self.action, Action::Cleanup { .. }) {
                out.extend(self.deleted.iter().map(|l| match l.monthly {
                    Some(_) => {
                        let saves = t!("summary-saves-line", amount = money(l.monthly));
                        format!("    {}  {saves}", l.label)
                    }
                    None => format!("    {}  {unknown}", l.label),
                }));
                let saves = Confirm::monthly_text(self.deleted_monthly().as_ref());
                out.push(format!("  {}", t!("summary-saves", amount = saves)));
            } else {
                out.extend(self.deleted.iter().map(|l| format!("    {}", l.label)));
            }
        }
        if !self.survivors.is_empty() {
            out.push(format!("  {}", t!("summary-keeps-billing")));
            out.extend(self.survivors.iter().map(|l| match l.monthly {
                Some(_) => {
                    let monthly = t!("summary-per-month", amount = money(l.monthly));
                    format!("    {}  {monthly}", l.label)
                }
                None => format!("    {}  {unknown}", l.label),
            }));
            let after = Confirm::monthly_text(self.survivors_monthly().as_ref());
            out.push(format!("  {}", t!("summary-total-after", amount = after)));
        }
        if !self.note.is_empty() {
            out.push(format!("  {}", self.note));
        }
        if !self.exposed.is_empty() {
            out.push(format!("  {}", t!("summary-exposed")));
            out.extend(self.exposed.iter().map(|l| format!("    {l}")));
        }
        out
    }

    /// The dialog of a cleanup: `delete` in its order, and what else of `found` stays, each
    /// priced by `sheet`.
    pub fn cleanup(
        delete: Vec<LinkedResource>,
        found: &[LinkedResource],
        sheet: Option<&Sheet>,
    ) -> Confirm {
        let line = |r: &LinkedResource| ConfirmLine {
            label: describe(r),
            monthly: sheet.and_then(|s| monthly_after_release(s, &r.to_meter())),
        };
        let survivors: Vec<ConfirmLine> = found
            .iter()
            .filter(|r| !delete.iter().any(|d| d.id == r.id))
            .map(line)
            .collect();
        Confirm {
            title: t!("confirm-title-cleanup").into_owned(),
            target: t!("confirm-resources", count = delete.len()),
            cost_per_hour: None,
            deleted: delete.iter().map(line).collect(),
            survivors,
            currency: sheet.map(|s| s.currency),
            note: t!("note-cleanup").into_owned(),
            exposed: findings(found).iter().map(Finding::shown).collect(),
            pick: None,
            choice: Choice::Cancel,
            action: Action::Cleanup { delete },
        }
    }

    /// What the deletes save a month together, each unpriced one named.
    pub fn deleted_monthly(&self) -> Option<PartialTotal> {
        total(self.currency?, &self.deleted)
    }

    /// The dialog for `action` as things stand in `app`.
    pub fn for_action(app: &App, action: Action) -> Confirm {
        let burn = app
            .spend
            .reading
            .as_ref()
            .map(|r| r.accrual.burn_per_hour.total());
        Confirm::build(
            action,
            app.cloud.inventory.as_ref(),
            app.spend.pricing.as_ref(),
            burn,
        )
    }

    /// The same summary from its parts, for the command line's confirmation prompt.
    pub fn build(
        action: Action,
        inventory: Option<&Inventory>,
        pricing: Option<&Pricing>,
        cost_per_hour: Option<Money>,
    ) -> Confirm {
        let resources: &[LinkedResource] = inventory.map_or(&[], |i| i.resources.as_slice());
        let target = inventory.and_then(|i| i.instance.as_ref()).map_or_else(
            || t!("confirm-the-instance").into_owned(),
            |i| format!("{} ({})", i.id, i.name),
        );
        let monthly = |r: &LinkedResource| {
            pricing.and_then(|p| monthly_after_release(&p.sheet, &r.to_meter()))
        };
        let line = |r: &LinkedResource| ConfirmLine {
            label: describe(r),
            monthly: monthly(r),
        };
        let (deleted, survivors, title, note): (Vec<_>, Vec<_>, _, String) = match &action {
            Action::Release => (
                resources
                    .iter()
                    .filter(|r| r.deleted_with_instance)
                    .map(line)
                    .collect(),
                resources
                    .iter()
                    .filter(|r| !r.deleted_with_instance)
                    .map(line)
                    .collect(),
                t!("confirm-title-release"),
                t!("note-release").into_owned(),
            ),
            Action::Stop => (
                Vec::new(),
                stopped_compute(pricing)
                    .into_iter()
                    .chain(resources.iter().map(line))
                    .collect(),
                t!("confirm-title-stop"),
                stop_note(pricing, inventory.and_then(|i| i.instance.as_ref())),
            ),
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            } => {
                let plan = SnapshotPlan::new(resources, *keep, *final_snapshot);
                let by_id = |id: &str| {
                    resources
                        .iter()
                        .find(|r| r.id == id && r.kind == ResourceKind::Snapshot)
                };
                let note = snapshot_clean_note(*keep, &plan);
                (
                    plan.deleted
                        .iter()
                        .filter_map(|id| by_id(id))
                        .map(line)
                        .collect(),
                    plan.kept
                        .iter()
                        .filter_map(|(id, _)| by_id(id))
                        .map(line)
                        .collect(),
                    t!("confirm-title-snapshot-clean"),
                    note,
                )
            }
            Action::Start => (
                Vec::new(),
                resources.iter().map(line).collect(),
                t!("confirm-title-start"),
                start_note(pricing),
            ),
            Action::SetDeadline { .. } => (
                Vec::new(),
                Vec::new(),
                t!("confirm-title-set-deadline"),
                String::new(),
            ),
            Action::Cleanup { delete } => {
                let mut c = Confirm::cleanup(delete.clone(), resources, pricing.map(|p| &p.sheet));
                c.cost_per_hour = cost_per_hour;
                c.target = target;
                return c;
            }
        };
        let exposed = match &action {
            Action::Release => findings(resources).iter().map(Finding::shown).collect(),
            _ => Vec::new(),
        };
        let action = promise(action, inventory);
        Confirm {
            title: title.into_owned(),
            target,
            cost_per_hour,
            deleted,
            survivors,
            currency: pricing.map(|p| p.sheet.currency),
            note,
            exposed,
            choice: Choice::Cancel,
            action,
            pick: None,
        }
    }
}

/// The action as confirmed: a snapshot-clean carries the ids its plan deletes, so the adapter
/// refuses if its fresh inventory would delete anything else.
fn promise(action: Action, inventory: Option<&Inventory>) -> Action {
    match (action, inventory) {
        (
            Action::SnapshotClean {
                keep,
                final_snapshot,
                ..
            },
            Some(inventory),
        ) => Action::SnapshotClean {
            keep,
            final_snapshot,
            delete: Some(SnapshotPlan::new(&inventory.resources, keep, final_snapshot).deleted),
        },
        (action, _) => action,
    }
}

/// What a snapshot clean keeps, and that a snapshot an image uses is kept too.
fn snapshot_clean_note(keep: usize, plan: &SnapshotPlan) -> String {
    let mut note = t!("note-snapshot-clean", keep = keep);
    if plan
        .kept
        .iter()
        .any(|(_, why)| matches!(why, Kept::BacksImage(_)))
    {
        note.push_str(&t!("sentence-gap"));
        note.push_str(&t!("note-snapshot-image"));
    }
    note
}

fn total(currency: Currency, lines: &[ConfirmLine]) -> Option<PartialTotal> {
    let amounts = lines
        .iter()
        .map(|l| (l.monthly.map(|m| Money::new(m, currency)), l.label.as_str()));
    PartialTotal::sum(currency, amounts).ok()
}

/// The compute a stopped instance still bills, as a line of what keeps billing: a sheet that
/// keeps charging while stopped bills it every hour of the month. No line when the sheet says
/// stopping ends compute, or when compute was paid up front; unpriced with no sheet.
fn stopped_compute(pricing: Option<&Pricing>) -> Option<ConfirmLine> {
    let Some(pricing) = pricing else {
        return Some(ConfirmLine {
            label: t!("confirm-stopped-compute-unknown").into_owned(),
            monthly: None,
        });
    };
    let share = pricing.sheet.billing.stop_policy.compute_share();
    let ComputeTerms::Hourly { per_hour } = pricing.terms else {
        return None;
    };
    if share.is_zero() {
        return None;
    }
    let hours = Decimal::from(pricing.sheet.billing.month_hours);
    let percent = (share * Decimal::from(100)).normalize();
    Some(ConfirmLine {
        label: t!(
            "confirm-stopped-compute",
            percent = percent.to_string(),
            per_hour = Money::new(per_hour, pricing.sheet.currency).to_string()
        ),
        monthly: Some(per_hour * share * hours),
    })
}

fn start_note(pricing: Option<&Pricing>) -> String {
    match pricing.map(|p| (&p.terms, p.sheet.currency)) {
        Some((ComputeTerms::Hourly { per_hour }, currency)) => t!(
            "note-start-priced",
            per_hour = Money::new(*per_hour, currency).to_string()
        ),
        _ => t!("note-start").into_owned(),
    }
}

/// What a stop bills, and on a platform that releases stopped instances (AutoDL), when the
/// disk is lost and that the GPU may not come back.
fn stop_note(pricing: Option<&Pricing>, instance: Option<&crate::cloud::InstanceInfo>) -> String {
    let mut note = stop_billing_note(pricing);
    let days = pricing.and_then(|p| p.sheet.billing.released_after_stopped_days);
    let provider = instance.map_or("", |i| i.provider.as_str());
    if let Some(after) = crate::cloud::kept_stopped_for(days, provider) {
        let provider = instance.map_or_else(
            || t!("note-the-platform").into_owned(),
            |i| i.provider.clone(),
        );
        let days = (after.as_hours() / 24).to_string();
        let _ = write!(
            note,
            "{}{}",
            t!("sentence-gap"),
            t!("note-stop-released-after", provider = provider, days = days)
        );
    }
    note
}

fn stop_billing_note(pricing: Option<&Pricing>) -> String {
    let Some(pricing) = pricing else {
        return t!("note-stop-unknown").into_owned();
    };
    let share = pricing.sheet.billing.stop_policy.compute_share();
    if share.is_zero() {
        t!("note-stop-free").into_owned()
    } else if share == Decimal::ONE {
        t!("note-stop-full", provider = pricing.sheet.provider.clone())
    } else {
        t!("note-stop-share", share = share.to_string())
    }
}

/// An action's verb as the dialogs and the events say it: `release`, `snapshot-clean`.
pub fn verb(action: &Action) -> Cow<'static, str> {
    match action {
        Action::Release => t!("verb-release"),
        Action::Stop => t!("verb-stop"),
        Action::Start => t!("verb-start"),
        Action::SnapshotClean { .. } => t!("verb-snapshot-clean"),
        Action::SetDeadline { .. } => t!("verb-set-deadline"),
        Action::Cleanup { .. } => t!("verb-cleanup"),
    }
}

pub(crate) fn describe(r: &LinkedResource) -> String {
    let size = if r.size_gib.is_zero() {
        String::new()
    } else {
        format!(" {} GiB", r.size_gib.normalize())
    };
    format!("{} {} ({}){size}", r.kind.shown(), r.id, r.name)
}

#[cfg(test)]
mod stop_tests;
#[cfg(test)]
mod totals_tests;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cloud::snapshots::test_snapshot as snap;

    #[test]
    fn the_dialog_promises_the_plan_with_tied_times_and_a_snapshot_behind_an_image() {
        let inventory = Inventory {
            instance: None,
            // Listed neither in time nor in id order; the image's snapshot is the newest.
            resources: vec![
                snap("snap-a", 100, None),
                snap("snap-img", 500, Some("ami-1")),
                snap("snap-c", 100, None),
                snap("snap-b", 100, None),
            ],
            deadline: None,
        };
        let action = Action::SnapshotClean {
            keep: 1,
            final_snapshot: false,
            delete: None,
        };
        let c = Confirm::build(action, Some(&inventory), None, None);
        let ids = |lines: &[ConfirmLine]| -> Vec<String> {
            lines
                .iter()
                .map(|l| l.label.split_whitespace().nth(1).unwrap().to_string())
                .collect()
        };
        assert_eq!(ids(&c.deleted), vec!["snap-b", "snap-a"]);
        assert_eq!(ids(&c.survivors), vec!["snap-c", "snap-img"]);
        assert_eq!(
            c.action,
            Action::SnapshotClean {
                keep: 1,
                final_snapshot: false,
                delete: Some(vec!["snap-b".into(), "snap-a".into()]),
            },
            "the confirmed action carries what it promised"
        );
    }
}
