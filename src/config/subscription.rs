//! `[subscription]`: a plan paid ahead (包日/包周/包月/包年, a reserved term), its dates, its
//! auto-renew switch and its rule for leaving early. Each value is checked where it is
//! written, so a bad one names its line and column; [`SubscriptionConfig::resolve`] turns the
//! section and the sheet's default rule into the core's [`Subscription`].

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, Deserializer};

use crate::money::{Currency, Money};
use crate::subscription::{BadRefund, EndSource, Plan, Refund, RefundTo, Subscription};

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SubscriptionConfig {
    /// How long one period runs: `day`, `week`, `month` or `year`.
    #[serde(deserialize_with = "opt_plan")]
    pub plan: Option<Plan>,
    /// What the current period cost, in the sheet's currency.
    #[serde(deserialize_with = "super::values::opt_amount")]
    pub paid: Option<Decimal>,
    /// When the current period began: a date, a local date and time (both in the config's
    /// zone) or an RFC 3339 time.
    #[serde(deserialize_with = "opt_when")]
    pub started: Option<When>,
    /// When it ends; `started` plus one period when unset.
    #[serde(deserialize_with = "opt_when")]
    pub ends: Option<When>,
    /// The auto-renew switch.
    pub renews: Option<bool>,
    /// What leaving early returns of the unused share: `none`, `unused` or a fraction; the
    /// sheet's `billing.early_termination_refund` when unset.
    #[serde(deserialize_with = "opt_refund")]
    pub refund: Option<Refund>,
    /// Where that refund goes: `cash` or `vouchers`; the sheet's when unset.
    #[serde(deserialize_with = "opt_refund_to")]
    pub refund_to: Option<RefundTo>,
}

/// A date or time as written: local ones are read in the user's zone when resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Local(DateTime),
    At(Timestamp),
}

impl When {
    /// The instant, a local date or time read in `tz`; `None` past the calendar's end.
    pub fn instant(self, tz: &TimeZone) -> Option<Timestamp> {
        match self {
            When::At(at) => Some(at),
            When::Local(local) => local
                .to_zoned_datetime(tz.clone())
                .ok()
                .map(|z| z.timestamp()),
        }
    }

    fn parse(text: &str) -> Option<When> {
        let text = text.trim();
        if let Ok(at) = text.parse::<Timestamp>() {
            return Some(When::At(at));
        }
        if let Ok(local) = text.parse::<DateTime>() {
            return Some(When::Local(local));
        }
        text.parse::<jiff::civil::Date>()
            .ok()
            .map(|d| When::Local(d.to_datetime(jiff::civil::Time::midnight())))
    }
}

impl std::fmt::Display for When {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            When::Local(local) => write!(f, "{local}"),
            When::At(at) => write!(f, "{at}"),
        }
    }
}

impl SubscriptionConfig {
    /// `(ends, started)` as written when `ends` is not after `started`. Both are compared as
    /// if in UTC: two local times keep their order in every zone.
    pub fn misordered(&self) -> Option<(String, String)> {
        let (started, ends) = self.started.zip(self.ends)?;
        let utc = TimeZone::UTC;
        (ends.instant(&utc) <= started.instant(&utc))
            .then(|| (ends.to_string(), started.to_string()))
    }

    /// The end this section states, `started` plus one period when `ends` is unset.
    pub fn stated_end(&self, tz: &TimeZone) -> Option<Timestamp> {
        if let Some(ends) = self.ends {
            return ends.instant(tz);
        }
        let started = self.started?.instant(tz)?;
        self.plan?.after(started, tz)
    }

    /// The core's subscription from this section, `currency` (the sheet's or the budget's,
    /// which `paid` is in) and the sheet's default rule `(refund, refund_to)`; local dates are
    /// read in `tz`.
    pub fn resolve(
        &self,
        currency: Option<Currency>,
        sheet_rule: (Option<Refund>, Option<RefundTo>),
        tz: &TimeZone,
    ) -> Subscription {
        let ends = self.stated_end(tz);
        let started = match self.started {
            Some(started) => started.instant(tz),
            None => ends.zip(self.plan).and_then(|(e, p)| p.before(e, tz)),
        };
        Subscription {
            plan: self.plan,
            paid: self.paid.zip(currency).map(|(a, c)| Money::new(a, c)),
            started,
            ends,
            source: EndSource::Config,
            renews: self.renews,
            refund: self.refund.or(sheet_rule.0),
            refund_to: self.refund_to.or(sheet_rule.1),
        }
    }
}

fn opt_plan<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Plan>, D::Error> {
    let text = String::deserialize(d)?;
    text.parse()
        .map(Some)
        .map_err(|_| de::Error::custom(crate::t!("sub-config-plan", text = text.as_str())))
}

fn opt_refund<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Refund>, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map(Some).map_err(|e| {
        de::Error::custom(match e {
            BadRefund::Word(_) => crate::t!("sub-config-refund-word", text = text.as_str()),
            BadRefund::Range(_) => crate::t!("sub-config-refund-range", text = text.as_str()),
        })
    })
}

fn opt_refund_to<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RefundTo>, D::Error> {
    let text = String::deserialize(d)?;
    text.parse()
        .map(Some)
        .map_err(|_| de::Error::custom(crate::t!("sub-config-refund-to", text = text.as_str())))
}

/// A date or time: a TOML date or date-time, or the same as a string.
fn opt_when<'de, D: Deserializer<'de>>(d: D) -> Result<Option<When>, D::Error> {
    let text = match toml::Value::deserialize(d)? {
        toml::Value::String(s) => s,
        toml::Value::Datetime(dt) => dt.to_string(),
        other => other.to_string(),
    };
    When::parse(&text)
        .map(Some)
        .ok_or_else(|| de::Error::custom(crate::t!("sub-config-when", text = text.as_str())))
}

#[cfg(test)]
#[path = "subscription_tests.rs"]
mod tests;
