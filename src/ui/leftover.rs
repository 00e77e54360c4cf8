//! The bottom border of the resources panel: what keeps billing after release (or, once the
//! instance is gone, what still bills) per month, with what the sheet cannot price kept in
//! sight at every width: the label shortens first.

use ratatui::text::{Line, Span};

use super::text::{amount, width};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::t;

/// "keeps billing after release: 293.65 USD/month", for the bottom border.
pub(super) fn leftover_title(app: &App, w: usize, theme: &Theme) -> Option<Line<'static>> {
    if app.spend.pricing.is_none() {
        return Some(Line::styled(
            format!(" {} ", t!("leftover-no-sheet")),
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
            t!("leftover-nothing-billing")
        } else {
            t!("leftover-nothing-after-release")
        };
        let text = format!(" {text} ");
        return Some(Line::styled(text, theme.style(Role::ActionOk)));
    }
    let total = amount(still.known.amount);
    let with_currency = format!("{total} {currency}");
    let long = if released {
        t!("leftover-still-billing", amount = with_currency.as_str())
    } else {
        t!(
            "leftover-after-release-long",
            amount = with_currency.as_str()
        )
    };
    let mid = if released {
        t!("leftover-billing-short", amount = with_currency.as_str())
    } else {
        t!(
            "leftover-after-release-short",
            amount = with_currency.as_str()
        )
    };
    let short = t!("leftover-per-month", amount = total.as_str());
    let labels = [long, mid, short].map(|l| format!(" {l} "));
    let extras: Vec<String> = if unpriced > 0 {
        vec![
            format!("{} ", t!("leftover-unknown-long", count = unpriced)),
            format!("{} ", t!("leftover-unknown", count = unpriced)),
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
