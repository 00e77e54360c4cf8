//! A subscription: a plan paid ahead for a day, a week, a month or a year (包日/包周/包月/包年,
//! a reserved term), with an end, an auto-renew switch and a rule for leaving early. At an
//! instant it tells the time left, whether it renews, and what leaving now returns and to
//! what: the rule applied to the unused share of what was paid. Unknown stays unknown, never
//! 0: a plan whose price or rule nobody stated returns `Err` with what is missing.

use std::fmt;
use std::str::FromStr;

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Span, Timestamp, ToSpan as _};
use rust_decimal::Decimal;
use serde::Serialize;

use crate::money::Money;

/// How long one period of the plan runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    Day,
    Week,
    Month,
    Year,
}

impl Plan {
    fn span(self) -> Span {
        match self {
            Plan::Day => 1.day(),
            Plan::Week => 1.week(),
            Plan::Month => 1.month(),
            Plan::Year => 1.year(),
        }
    }

    /// One period after `start`, on the calendar of `tz` (a month from 31 January ends on the
    /// last day of February); `None` past the calendar's end.
    pub fn after(self, start: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
        let zoned = start.to_zoned_datetime(tz.clone());
        zoned.checked_add(self.span()).ok().map(|z| z.timestamp())
    }

    /// One period before `end`, on the calendar of `tz`: where the period that ends then began.
    pub fn before(self, end: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
        let zoned = end.to_zoned_datetime(tz.clone());
        zoned.checked_sub(self.span()).ok().map(|z| z.timestamp())
    }

    /// The word the config writes: `day`, `week`, `month`, `year`.
    pub fn word(self) -> &'static str {
        match self {
            Plan::Day => "day",
            Plan::Week => "week",
            Plan::Month => "month",
            Plan::Year => "year",
        }
    }
}

/// A word that is not a plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a plan: write day, week, month or year")]
pub struct UnknownPlan(pub String);

impl FromStr for Plan {
    type Err = UnknownPlan;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "day" => Ok(Plan::Day),
            "week" => Ok(Plan::Week),
            "month" => Ok(Plan::Month),
            "year" => Ok(Plan::Year),
            other => Err(UnknownPlan(other.to_owned())),
        }
    }
}

/// What leaving before the end returns of the unused share of what was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refund {
    /// Nothing (most card-hour markets).
    None,
    /// The whole unused share.
    Unused,
    /// This fraction (above 0, at most 1) of the unused share.
    Share(Decimal),
}

impl Refund {
    /// The fraction of the unused share returned.
    pub fn fraction(self) -> Decimal {
        match self {
            Refund::None => Decimal::ZERO,
            Refund::Unused => Decimal::ONE,
            Refund::Share(f) => f,
        }
    }
}

impl fmt::Display for Refund {
    /// The rule as the config writes it: `none`, `unused`, `0.8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refund::None => f.write_str("none"),
            Refund::Unused => f.write_str("unused"),
            Refund::Share(s) => write!(f, "{}", s.normalize()),
        }
    }
}

/// Why a refund rule was refused; each holds the text as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadRefund {
    #[error("`{0}` is not a refund rule: write none, unused, or a fraction such as 0.8")]
    Word(String),
    #[error("`{0}` is not a fraction from 0 to 1 of the unused share")]
    Range(String),
}

impl FromStr for Refund {
    type Err = BadRefund;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "none" => Ok(Refund::None),
            "unused" => Ok(Refund::Unused),
            text => {
                let share =
                    Decimal::from_str(text).map_err(|_| BadRefund::Word(text.to_owned()))?;
                if share.is_sign_negative() || share > Decimal::ONE {
                    Err(BadRefund::Range(text.to_owned()))
                } else if share.is_zero() {
                    Ok(Refund::None)
                } else if share == Decimal::ONE {
                    Ok(Refund::Unused)
                } else {
                    Ok(Refund::Share(share))
                }
            }
        }
    }
}

/// Where a refund is paid: back as money, or as vouchers only the platform takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundTo {
    Cash,
    Vouchers,
}

/// A word that is not where a refund goes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not where a refund goes: write cash or vouchers")]
pub struct UnknownRefundTo(pub String);

impl FromStr for RefundTo {
    type Err = UnknownRefundTo;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "cash" => Ok(RefundTo::Cash),
            "vouchers" => Ok(RefundTo::Vouchers),
            other => Err(UnknownRefundTo(other.to_owned())),
        }
    }
}

/// Who said when the subscription ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndSource {
    /// The provider's API (Alibaba's and Tencent's `ExpiredTime`).
    Provider,
    /// The config's `[subscription]`.
    #[default]
    Config,
}

/// A prepaid term as the provider reports it: its end and, where the cloud says, whether it
/// renews itself (Tencent's `RenewFlag`; Alibaba's listing does not say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported {
    pub ends: Timestamp,
    pub renews: Option<bool>,
}

/// What leaving now would return cannot be told, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unknown {
    /// `paid` is not stated.
    Paid,
    /// Neither the config nor the sheet states an early-termination rule.
    Rule,
    /// The current period's start cannot be told (no `started`, no `plan`).
    Start,
}

impl Unknown {
    /// The reason in the user's language.
    pub fn shown(self) -> String {
        match self {
            Unknown::Paid => crate::t!("sub-unknown-paid"),
            Unknown::Rule => crate::t!("sub-unknown-rule"),
            Unknown::Start => crate::t!("sub-unknown-start"),
        }
        .into_owned()
    }
}

/// The facts of one subscription, from the config and the sheet, its end perhaps from the
/// provider. With no end known there is nothing to show: [`Subscription::at`] is `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subscription {
    pub plan: Option<Plan>,
    /// What the current period cost, in the sheet's currency.
    pub paid: Option<Money>,
    /// When the current period began.
    pub started: Option<Timestamp>,
    pub ends: Option<Timestamp>,
    /// Who said `ends`.
    pub source: EndSource,
    /// Whether it renews itself at the end; `None` when nobody said.
    pub renews: Option<bool>,
    pub refund: Option<Refund>,
    pub refund_to: Option<RefundTo>,
}

impl Subscription {
    /// The same subscription ending when the provider says, and renewing as it says where it
    /// does. A provider's end unlike the stated one is a renewal: `paid` is then taken to be
    /// one plan's period, the one that ends at `ends`, so the period is counted back from it.
    #[must_use]
    pub fn with_reported(self, reported: Reported, tz: &TimeZone) -> Subscription {
        let mut sub = self.with_provider_end(reported.ends, tz);
        sub.renews = reported.renews.or(sub.renews);
        sub
    }

    /// The same subscription ending at the provider's `ends` (see [`Self::with_reported`]).
    #[must_use]
    pub fn with_provider_end(mut self, ends: Timestamp, tz: &TimeZone) -> Subscription {
        if self.started.is_none() || self.ends.is_some_and(|stated| stated != ends) {
            self.started = self.plan.and_then(|p| p.before(ends, tz));
        }
        self.ends = Some(ends);
        self.source = EndSource::Provider;
        self
    }

    /// Where the subscription stands at `now`; `None` while no end is known.
    pub fn at(&self, now: Timestamp) -> Option<Standing> {
        let ends = self.ends?;
        Some(Standing {
            ends,
            remaining: ends.duration_since(now).max(SignedDuration::ZERO),
            renews: self.renews,
            returns: self.returns(ends, now),
            refund: self.refund,
            refund_to: self.refund_to,
            source: self.source,
        })
    }

    /// What leaving at `now` returns: the rule's fraction of the share of `paid` the period
    /// ending at `ends` has not used yet, rounded to the cent.
    fn returns(&self, ends: Timestamp, now: Timestamp) -> Result<Money, Unknown> {
        let refund = self.refund.ok_or(Unknown::Rule)?;
        let paid = self.paid.ok_or(Unknown::Paid)?;
        if refund == Refund::None || now >= ends {
            return Ok(Money::zero(paid.currency));
        }
        let started = self.started.ok_or(Unknown::Start)?;
        let term = ends.duration_since(started).as_secs();
        if term <= 0 {
            return Err(Unknown::Start);
        }
        let unused = ends.duration_since(now).as_secs().min(term);
        let share = Decimal::from(unused) / Decimal::from(term);
        Ok(paid.times(share * refund.fraction()).round_cents())
    }
}

/// A subscription at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub ends: Timestamp,
    /// Zero once it has ended.
    pub remaining: SignedDuration,
    pub renews: Option<bool>,
    /// What leaving now returns (zero once ended, or under a `none` rule), or why that is
    /// unknown.
    pub returns: Result<Money, Unknown>,
    pub refund: Option<Refund>,
    pub refund_to: Option<RefundTo>,
    pub source: EndSource,
}

impl Standing {
    /// Leaving returns nothing by rule (not because the period is over).
    pub fn no_refund(&self) -> bool {
        self.refund == Some(Refund::None)
    }

    /// The subscription's end has passed.
    pub fn ended(&self) -> bool {
        self.remaining.is_zero()
    }
}

#[cfg(test)]
#[path = "subscription_tests.rs"]
mod tests;
