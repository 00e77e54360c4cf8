//! The cost meter: compute, bandwidth, storage and extras, each with the amount so far and its
//! rate per hour; the total and the burn rate; billed beside accrued; where the spend will be
//! at the deadline and at midnight; the budget gauge; what the sheet could not price, which
//! makes the total incomplete.
//!
//! Every number comes from the meter's reading; lines are rounded with `to_cents`, so they add
//! up to the total shown. Wide, the summary sits under the table; narrow, beside it.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::cost_layout;
use super::paint;
use super::panel::Panel;
use super::text::{amount, local_time, short_duration, wrap};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::config::ProviderKind;
use crate::meter::{Breakdown, ComputeTerms};
use crate::money::Money;
use crate::spend::{Pricing, SpendReading};
use crate::t;

/// The summary goes under the table from this inner size, beside it below.
const STACKED_FROM: (usize, usize) = (50, 11);

/// The meter as strings and styles, ready to lay out.
pub(super) struct Meter {
    /// The four lines: label, so far, per hour.
    pub(super) lines: [(Cow<'static, str>, String, String); 4],
    pub(super) total: String,
    pub(super) burn: String,
    pub(super) total_style: Style,
    pub(super) billed: String,
    /// "per second", "per minute, min 1h", ...
    pub(super) step: String,
    /// (long label, short label, value, style) for the deadline and midnight.
    pub(super) projections: Vec<(String, String, String, Style)>,
    pub(super) budget: Option<Budget>,
    /// The prepaid balance and the time it lasts, where the provider keeps one.
    pub(super) balance: Option<Budget>,
    /// The plan paid ahead: time left, renewal, what leaving now returns; and the time left
    /// alone, for a border.
    pub(super) plan: Option<(Budget, String)>,
    /// What the sheet cannot price, with the missing key: the total is incomplete.
    pub(super) unknown: Vec<String>,
    /// An upload to the internet under way, then egress by destination once any of it went
    /// elsewhere than the internet.
    pub(super) egress: Vec<EgressNote>,
    /// Spent in each of the last sixty minutes, for the sparkline: only its shape is drawn.
    pub(super) per_minute: Vec<f64>,
}

/// A line about egress: the upload warning, or the split by destination.
pub(super) struct EgressNote {
    pub(super) text: String,
    pub(super) warning: bool,
}

impl EgressNote {
    pub(super) fn style(&self, theme: &Theme) -> Style {
        theme.style(if self.warning {
            Role::AlertWarn
        } else {
            Role::TextDim
        })
    }
}

pub(super) struct Budget {
    pub(super) fraction: Option<f64>,
    pub(super) text: String,
    pub(super) style: Style,
}

pub fn render_cost(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, focused: bool) {
    let mut panel = Panel::new(theme.border(focused)).title(Span::styled(
        format!(" {} ", t!("panel-cost")),
        theme.style(Role::Title),
    ));
    if let Some(p) = &app.spend.pricing {
        panel = panel.title(
            Line::styled(
                format!(" {} ", p.sheet.currency),
                theme.style(Role::TextDim),
            )
            .alignment(Alignment::Right),
        );
    }
    let inner = panel.inner(area);
    let (w, h) = (usize::from(inner.width), usize::from(inner.height));
    let lines = match (&app.spend.pricing, &app.spend.reading) {
        (None, _) if !app.cloud.configured => nothing_to_price(w, theme),
        (None, _) => no_pricing(w, theme, &app.cloud.provider),
        (Some(_), None) => vec![Line::styled(
            t!("cost-waiting-inventory"),
            theme.style(Role::TextDim),
        )],
        (Some(p), Some(r)) => {
            let meter = meter(app, p, r, theme);
            let (lines, left_out) = if w >= STACKED_FROM.0 && h >= STACKED_FROM.1 {
                cost_layout::stacked(&meter, w, h, theme)
            } else {
                cost_layout::side_by_side(&meter, w, h, theme)
            };
            if let Some(note) = left_out {
                panel = panel.title_bottom(note);
            }
            lines
        }
    };
    let inner = panel.inner(area);
    panel.render(area, buf);
    paint::lines(inner, buf, &lines);
}

/// With no provider there is no instance to price: said plainly, not as a warning.
fn nothing_to_price(w: usize, theme: &Theme) -> Vec<Line<'static>> {
    wrap(&t!("cost-nothing-to-price"), w)
        .into_iter()
        .map(|l| Line::styled(l, theme.style(Role::TextDim)))
        .collect()
}

/// What to do when nothing prices the instance. Where the instance type is the SKU of the
/// region's bundled sheet (AWS, Alibaba, Tencent), naming one is not the fix.
fn no_pricing(w: usize, theme: &Theme, provider: &str) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled(
        t!("cost-no-sheet"),
        theme.style(Role::AlertWarn),
    )];
    let by_type = ProviderKind::from_id(provider).is_some_and(ProviderKind::instance_type_is_sku);
    let hint = if by_type {
        t!("cost-hint-by-type")
    } else {
        t!("cost-hint-name-sheet")
    };
    out.extend(
        wrap(&hint, w)
            .into_iter()
            .map(|l| Line::styled(l, theme.style(Role::TextDim))),
    );
    out
}

/// `spent / budget`, when both are in one currency and the budget is positive.
fn fraction_of(spent: Money, budget: Money) -> Option<f64> {
    if spent.currency != budget.currency || budget.amount <= Decimal::ZERO {
        return None;
    }
    (spent.amount / budget.amount).to_f64()
}

/// The spend's style against the budget: ok, nearing it (from 80 %), or over.
fn budget_role(fraction: Option<f64>) -> Role {
    match fraction {
        Some(f) if f >= 1.0 => Role::CostOver,
        Some(f) if f >= 0.8 => Role::CostWarn,
        _ => Role::CostOk,
    }
}

/// The total, the number the tool exists for: the theme's accent, bold, unless the budget
/// says nearing or over.
fn total_style(fraction: Option<f64>, theme: &Theme) -> Style {
    let style = match budget_role(fraction) {
        Role::CostOk => theme.style(Role::CostTotal),
        role => theme.style(role),
    };
    style.add_modifier(ratatui::style::Modifier::BOLD)
}

fn step_label(pricing: &Pricing) -> String {
    let billing = &pricing.sheet.billing;
    let step = match billing.step_seconds {
        0 | 1 => t!("cost-step-second").into_owned(),
        60 => t!("cost-step-minute").into_owned(),
        3600 => t!("cost-step-hour").into_owned(),
        s => t!("cost-step-seconds", seconds = s),
    };
    if billing.minimum_seconds > billing.step_seconds {
        let min = jiff::SignedDuration::from_secs(i64::from(billing.minimum_seconds));
        t!(
            "cost-step-minimum",
            step = step,
            minimum = short_duration(min)
        )
    } else {
        step
    }
}

fn meter(app: &App, pricing: &Pricing, reading: &SpendReading, theme: &Theme) -> Meter {
    let accrued = reading.accrual.accrued.to_cents().map(amount);
    let burn = reading.accrual.burn_per_hour.to_cents().map(amount);
    let budget = app.spend.budget;
    let spent = reading.accrual.accrued.total();
    let fraction = budget.and_then(|b| fraction_of(spent, b));
    let compute = if matches!(pricing.terms, ComputeTerms::Committed { .. }) {
        t!("cost-committed")
    } else {
        t!("cost-compute")
    };
    let labels = [
        compute,
        t!("cost-bandwidth"),
        t!("cost-storage"),
        t!("cost-extras"),
    ];
    let projected = |b: &Breakdown| {
        let over = budget
            .and_then(|budget| fraction_of(b.total(), budget))
            .is_some_and(|f| f >= 1.0);
        let style = theme.style(if over { Role::CostOver } else { Role::Text });
        (amount(b.to_cents()[4]), style)
    };
    let mut projections = Vec::new();
    if let (Some(b), Some(d)) = (&reading.at_deadline, &app.deadline) {
        let (value, style) = projected(b);
        let at = local_time(d.at, app.now, &app.spend.time_zone);
        projections.push((
            t!("cost-at-deadline", at = at),
            t!("cost-deadline").into_owned(),
            value,
            style,
        ));
    }
    // The whole run's total projected to the end of the local day, not the spend since the
    // last midnight: said so.
    let (value, style) = projected(&reading.at_end_of_day);
    projections.push((
        t!("cost-by-midnight-long").into_owned(),
        t!("cost-by-midnight").into_owned(),
        value,
        style,
    ));
    Meter {
        lines: std::array::from_fn(|i| (labels[i].clone(), accrued[i].clone(), burn[i].clone())),
        total: accrued[4].clone(),
        burn: burn[4].clone(),
        total_style: total_style(fraction, theme),
        billed: amount(reading.accrual.billed.to_cents()[4]),
        step: step_label(pricing),
        projections,
        budget: budget.map(|b| Budget {
            fraction,
            text: match fraction {
                Some(f) if f >= 10.0 => t!("cost-budget-over", amount = amount(b.amount)),
                Some(f) => t!(
                    "cost-budget-share",
                    percent = format!("{:.0}", f * 100.0),
                    amount = amount(b.amount)
                ),
                None => t!(
                    "cost-budget-currency",
                    budget = b.currency.to_string(),
                    meter = spent.currency.to_string()
                ),
            },
            style: theme.style(if fraction.is_some() {
                budget_role(fraction)
            } else {
                Role::AlertWarn
            }),
        }),
        balance: balance(app, reading, theme),
        plan: plan(app, theme),
        unknown: crate::meter::unpriced::all_shown(&reading.accrual.unpriced),
        egress: egress(app, reading),
        per_minute: reading
            .per_minute
            .iter()
            .map(|m| m.to_f64().unwrap_or(0.0))
            .collect(),
    }
}

/// The upload warning, with the intranet route that would carry it for nothing, and the split
/// of egress by destination: the same words `status` prints.
fn egress(app: &App, reading: &SpendReading) -> Vec<EgressNote> {
    let currency = reading.accrual.accrued.currency;
    let mut out = Vec::new();
    if let Some(upload) = &reading.public_upload {
        let instance = app
            .cloud
            .inventory
            .as_ref()
            .and_then(|i| i.instance.as_ref());
        let json = gpumeter_core::spend::egress_shown::UploadJson::of(
            upload,
            currency,
            instance.map_or(app.cloud.provider.as_str(), |i| i.provider.as_str()),
            instance.and_then(|i| i.region.as_deref()),
        );
        out.push(EgressNote {
            text: json.line(&local_time(upload.since, app.now, &app.spend.time_zone)),
            warning: true,
        });
    }
    let cents = crate::spend::EgressCents::of(&reading.accrual.egress);
    if let Some(split) = gpumeter_core::spend::egress_shown::split_line(&cents, currency) {
        out.push(EgressNote {
            text: format!("{} {split}", t!("traffic-label")),
            warning: false,
        });
    }
    out
}

/// "20d0h left · no renewal · leave now 666.67 CNY vouchers": the plan paid ahead while its
/// end is known, warned when it ends within three days and nothing renews it.
fn plan(app: &App, theme: &Theme) -> Option<(Budget, String)> {
    let s = app.subscription.at(app.now)?;
    let role = if super::subscription::ends_soon(&s) {
        Role::CostWarn
    } else {
        Role::Text
    };
    let line = Budget {
        fraction: None,
        text: super::subscription::short(&s),
        style: theme.style(role),
    };
    Some((line, super::subscription::left(&s)))
}

/// "208.51 USD · ≤ 7h28m left": the balance as read, lasting from its reading at the
/// account's burn (a bound where only this instance's is known); warned under 6 hours, over
/// under 1.
fn balance(app: &App, reading: &SpendReading, theme: &Theme) -> Option<Budget> {
    let (balance, read_at) = app.balance.as_ref()?;
    let this_id = app
        .cloud
        .inventory
        .as_ref()
        .and_then(|i| i.instance.as_ref())
        .map_or("", |i| i.id.as_str());
    let burn = crate::spend::burn_of_account(
        reading.accrual.burn_per_hour.total(),
        this_id,
        app.spend.pricing.as_ref().map(|p| &p.sheet),
        app.account.as_deref(),
    );
    let Ok(outlook) = crate::guard::BalanceOutlook::new(balance.clone(), burn, *read_at) else {
        return Some(Budget {
            fraction: None,
            text: balance.available.to_string(),
            style: theme.style(Role::Text),
        });
    };
    let left = outlook.left(app.now);
    let role = match left.map(|l| l.as_hours()) {
        Some(h) if h < 1 => Role::CostOver,
        Some(h) if h < 6 => Role::CostWarn,
        _ => Role::Text,
    };
    Some(Budget {
        fraction: None,
        text: format!(
            "{} · {}",
            balance.available,
            super::balance::left_short(&outlook, app.now)
        ),
        style: theme.style(role),
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The Cost panel's text with nothing priced, on `provider`.
    fn unpriced_on(provider: &str) -> String {
        let mut app = crate::demo::demo_app(Duration::from_secs(600));
        app.spend.pricing = None;
        app.spend.reading = None;
        app.cloud.provider = provider.to_string();
        let area = Rect::new(0, 0, 60, 12);
        let mut buf = Buffer::empty(area);
        render_cost(area, &mut buf, &app, &Theme::default(), false);
        let cells = buf.content().iter().map(ratatui::buffer::Cell::symbol);
        cells
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_clouds_whose_instance_type_is_the_sku_are_not_told_to_name_one() {
        for provider in ["aws", "alibaba", "tencent"] {
            let text = unpriced_on(provider);
            assert!(
                text.contains("the instance type is the SKU"),
                "{provider}: {text}"
            );
            assert!(!text.contains("name a sheet and SKU"), "{provider}: {text}");
        }
        for kind in ProviderKind::ALL {
            let text = unpriced_on(kind.id());
            let by_type = text.contains("the instance type is the SKU");
            assert_eq!(by_type, kind.instance_type_is_sku(), "{kind}: {text}");
        }
        for provider in ["command", "no provider"] {
            let text = unpriced_on(provider);
            assert!(text.contains("name a sheet and SKU"), "{provider}: {text}");
        }
    }
}
