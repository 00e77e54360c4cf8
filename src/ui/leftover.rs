//! The bottom border of the resources panel: what keeps billing after release (or, once the
//! instance is gone, what still bills) per month, with what the sheet cannot price kept in
//! sight at every width: the label shortens first.

use ratatui::text::{Line, Span};

use super::text::{amount, width};
use super::theme::{Role, Theme};
use crate::app::App;

/// "keeps billing after release: 293.65 USD/month", for the bottom border.
pub(super) fn leftover_title(app: &App, w: usize, theme: &Theme) -> Option<Line<'static>> {
    if app.spend.pricing.is_none() {
        return Some(Line::styled(
            " no price sheet: what survives is not totalled ",
            theme.style(Role::AlertWarn),
        ));
    }
    // The instance's one account, as status and checklist show it.
    let account = app.spend.account()?;
    let still = &account.still_billing_monthly;
    let currency = still.known.currency;
    let unpriced = still.unknown.len();
    // Once the instance is gone, what is left bills now, not "after release".
    let released = account.released.is_some()
        || crate::app::instance_state(app) == Some(crate::meter::InstanceState::Released);
    if account.leftovers.is_empty() {
        let text = if released {
            " nothing is billing "
        } else {
            " nothing keeps billing after release "
        };
        return Some(Line::styled(text, theme.style(Role::ActionOk)));
    }
    let total = amount(still.known.amount);
    let long = if released {
        format!(" still billing: {total} {currency}/month ")
    } else {
        format!(" keeps billing after release: {total} {currency}/month ")
    };
    let mid = if released {
        format!(" billing: {total} {currency}/mo ")
    } else {
        format!(" after release: {total} {currency}/mo ")
    };
    let labels = [long, mid, format!(" {total}/mo ")];
    let extras: Vec<String> = if unpriced > 0 {
        vec![
            format!("+ {unpriced} unknown: incomplete "),
            format!("+ {unpriced} unknown "),
            format!("+{unpriced}? "),
        ]
    } else {
        vec![String::new()]
    };
    // Two border corners and a rule character either side stay visible. The labels shorten
    // before what is unknown is dropped: an incomplete total never reads as a whole one.
    let fits = |a: &str, b: &str| width(a) + width(b) + 4 <= w;
    let last = extras.len() - 1;
    let order = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 1), (1, 2), (2, 2)];
    let (text, extra) = order
        .iter()
        .map(|&(l, e)| (&labels[l], &extras[e.min(last)]))
        .find(|(l, e)| fits(l, e))
        .unwrap_or((&labels[2], &extras[last]));
    let mut spans = vec![Span::styled(
        text.clone(),
        theme.style(Role::LeftoverWarning),
    )];
    if !extra.is_empty() {
        spans.push(Span::styled(extra.clone(), theme.style(Role::AlertWarn)));
    }
    Some(Line::from(spans))
}
