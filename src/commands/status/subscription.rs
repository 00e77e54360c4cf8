//! The subscription in `status`: when the plan ends, whether it renews and what leaving now
//! returns, from `[subscription]` and the sheet's rule, the end the provider's if it reports
//! one ([`crate::subscription`]). `null` when no end is known.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use crate::commands::context::Context;
use crate::provider::Provider;
use crate::spend::Pricing;
use crate::subscription::{EndSource, Plan, RefundTo, Subscription, Unknown};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubscriptionJson {
    /// `day`, `week`, `month` or `year`; `null` when not stated.
    pub plan: Option<Plan>,
    /// RFC 3339, UTC.
    pub ends: String,
    /// The auto-renew switch; `null` when nobody said.
    pub renews: Option<bool>,
    /// Seconds to the end; 0 once it has passed.
    pub remaining_s: i64,
    /// What leaving now returns; `null` when unknown (`leaving_now_unknown` says why).
    pub leaving_now_returns: Option<AmountJson>,
    /// `paid`, `rule` or `start`: what is missing to tell it; `null` when it is known.
    pub leaving_now_unknown: Option<Unknown>,
    /// The rule as written (`none`, `unused`, `0.8`); `null` when none is stated.
    pub refund: Option<String>,
    /// `cash` or `vouchers`; `null` when not stated.
    pub refund_to: Option<RefundTo>,
    /// Who said when it ends: `provider` or `config`.
    pub source: EndSource,
    /// The facts as one line in the user's language, for the text output.
    #[serde(skip)]
    pub line: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AmountJson {
    /// The exact amount, as a decimal string with cents.
    pub amount: String,
    pub currency: String,
}

/// The subscription `[subscription]` and the sheet's rule say, `paid` in the sheet's currency
/// (else the budget's); local dates in `tz`. The cockpit starts from it too.
pub fn configured(ctx: &Context, pricing: Option<&Pricing>, tz: &TimeZone) -> Subscription {
    let sheet = pricing.map(|p| &p.sheet);
    let currency = sheet.map(|s| s.currency).or(ctx.config.budget.currency);
    let rule = sheet.map_or((None, None), |s| {
        (s.billing.early_termination_refund, s.billing.refund_to)
    });
    ctx.config.subscription.resolve(currency, rule, tz)
}

/// The subscription the config, the sheet and the provider's last read say, at `now`.
pub fn read(
    ctx: &Context,
    provider: &dyn Provider,
    pricing: Option<&Pricing>,
    now: Timestamp,
) -> Option<SubscriptionJson> {
    let tz = ctx.config.user_zone().tz;
    let mut sub = configured(ctx, pricing, &tz);
    if let Some(reported) = provider.subscription() {
        sub = sub.with_reported(reported, &tz);
    }
    json(&sub, now, &tz)
}

/// `sub` at `now` as `status` prints it; times in the line are in `tz`.
pub fn json(sub: &Subscription, now: Timestamp, tz: &TimeZone) -> Option<SubscriptionJson> {
    let s = sub.at(now)?;
    Some(SubscriptionJson {
        plan: sub.plan,
        ends: s.ends.to_string(),
        renews: s.renews,
        remaining_s: s.remaining.as_secs(),
        leaving_now_returns: s.returns.as_ref().ok().map(|m| AmountJson {
            amount: m.cents_string(),
            currency: m.currency.to_string(),
        }),
        leaving_now_unknown: s.returns.as_ref().err().copied(),
        refund: s.refund.map(|r| r.to_string()),
        refund_to: s.refund_to,
        source: s.source,
        line: crate::ui::subscription::line(sub.plan, &s, now, tz),
    })
}
