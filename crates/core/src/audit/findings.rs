//! What `audit` finds where the bill and the ledger differ. Every amount is [`Money`], kept
//! per currency ([`Amounts`]) and never mixed; an amount the bill does not give is left out,
//! never shown as zero.

use std::borrow::Cow;
use std::sync::Arc;

use jiff::Timestamp;
use rust_decimal::Decimal;
use smallvec::SmallVec;

use super::bill::TransferScope;
use crate::meter::ResourceKind;
use crate::money::{Currency, Money};

/// Amounts in one or more currencies, one entry per currency, sorted by currency; the one
/// nearly every finding has is held in place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Amounts(pub SmallVec<[Money; 1]>);

impl Amounts {
    /// Adds `money` to the entry of its currency.
    pub fn add(&mut self, money: Money) {
        if let Some(m) = self.0.iter_mut().find(|m| m.currency == money.currency) {
            m.amount += money.amount;
        } else {
            self.0.push(money);
            self.0.sort_by_key(|m| m.currency);
        }
    }

    /// Adds every entry of `other`.
    pub fn add_all(&mut self, other: &Amounts) {
        for m in &other.0 {
            self.add(*m);
        }
    }

    /// The amount in `currency`, if any line was in it.
    pub fn get(&self, currency: Currency) -> Option<Money> {
        self.0.iter().find(|m| m.currency == currency).copied()
    }

    /// No amount in any currency.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Why a resource's charges count as left over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftoverWhy {
    /// Charged after its instance was released.
    AfterRelease,
    /// Charged after the ledger saw the resource itself gone.
    AfterGone,
    /// The ledger recorded it with an instance it holds nothing else of: that instance is gone
    /// from the audited span.
    InstanceGone,
}

impl LeftoverWhy {
    /// The reason's name, as JSON gives it and the catalogue's sentences choose by.
    pub fn name(self) -> &'static str {
        match self {
            LeftoverWhy::AfterRelease => "after_release",
            LeftoverWhy::AfterGone => "after_gone",
            LeftoverWhy::InstanceGone => "instance_gone",
        }
    }
}

/// A resource (or a released instance itself) that the bill charges after it should have
/// stopped billing.
#[derive(Debug, Clone, PartialEq)]
pub struct Leftover {
    pub resource: String,
    /// `None` for the instance's own charges after its release.
    pub kind: Option<ResourceKind>,
    pub instance: String,
    pub why: LeftoverWhy,
    /// The instance's release (or the resource's `gone`), where the ledger has one.
    pub released: Option<Timestamp>,
    /// From when the bill charges it: the release, or its first charge after.
    pub since: Timestamp,
    /// The charges after `since`, less the refunds the bill already gives for them; a charge
    /// that straddles `since` counts pro rata, a refund whole.
    pub amounts: Amounts,
    /// The refunds among them (negative), already on the bill.
    pub refunded: Amounts,
    /// The ledger's record shows the resource itself ended: a confirmed delete, or the
    /// release of the instance it goes with. Only then are its charges money to ask back; a
    /// disk, snapshot or address kept after the release still exists and bills rightly.
    pub ended: bool,
    /// Indexes of the bill lines, in the order given.
    pub lines: Vec<usize>,
}

/// Data moved between regions or zones, summed per pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Transfer {
    pub scope: TransferScope,
    pub from_region: Option<String>,
    pub to_region: Option<String>,
    /// The instances the ledger saw running in either region while the lines were charged.
    pub instances: Vec<String>,
    pub amounts: Amounts,
    /// The quantity summed where every line gives one in the same unit (GB).
    pub quantity: Option<(Decimal, String)>,
    pub lines: Vec<usize>,
}

/// Two instances of the same provider and SKU that ran at the same time.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlapCharge {
    pub first: String,
    /// The one started later: its compute during the overlap is what the overlap cost.
    pub second: String,
    pub sku: String,
    pub from: Timestamp,
    pub until: Timestamp,
    /// The later instance's compute lines within the overlap, pro rata; empty when the bill
    /// has none (unknown, not zero).
    pub amounts: Amounts,
    pub lines: Vec<usize>,
}

/// The likely reason the bill and the meter differ for one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The bill's hourly rate (its amount over its hours) is not the sheet's.
    RateChange { bill: Money, sheet: Money },
    /// The hours differ by less than one billing step per line: the provider rounds otherwise.
    Rounding {
        bill_hours: Decimal,
        meter_hours: Decimal,
    },
    /// The bill charges hours the meter did not see (it was not watching, or the instance ran
    /// on after it stopped watching), at the sheet's rate.
    Hours {
        bill_hours: Decimal,
        meter_hours: Decimal,
    },
    /// The bill charges compute the sheet has no price for.
    MissingOnSheet,
    /// The meter billed compute the bill does not charge (yet, or at all).
    NotOnBill,
    /// The bill's lines give no hours, so the rate and the hours cannot be told apart.
    Unknown,
}

impl Cause {
    /// [`Cause::label`] in the user's language.
    pub fn shown(&self) -> std::borrow::Cow<'static, str> {
        match self {
            Cause::RateChange { bill, sheet } if bill.amount > sheet.amount => {
                crate::t!("audit-cause-rate-above")
            }
            Cause::RateChange { .. } => crate::t!("audit-cause-rate-below"),
            Cause::Rounding {
                bill_hours,
                meter_hours,
            } if bill_hours > meter_hours => crate::t!("audit-cause-rounding-up"),
            Cause::Rounding { .. } => crate::t!("audit-cause-rounding-down"),
            Cause::Hours {
                bill_hours,
                meter_hours,
            } if bill_hours > meter_hours => crate::t!("audit-cause-hours-more"),
            Cause::Hours { .. } => crate::t!("audit-cause-hours-fewer"),
            Cause::MissingOnSheet => crate::t!("audit-cause-missing-on-sheet"),
            Cause::NotOnBill => crate::t!("audit-cause-not-on-bill"),
            Cause::Unknown => crate::t!("audit-cause-unknown"),
        }
    }

    /// A few words for people, naming the side that is higher: a bill below the meter is
    /// never put down to hours the meter did not see. English, as JSON and the evidence give it.
    pub fn label(&self) -> &'static str {
        match self {
            Cause::RateChange { bill, sheet } if bill.amount > sheet.amount => {
                "a rate change: the bill's rate is above the sheet's"
            }
            Cause::RateChange { .. } => "a rate change: the bill's rate is below the sheet's",
            Cause::Rounding {
                bill_hours,
                meter_hours,
            } if bill_hours > meter_hours => "a rounding rule: the bill rounds the hours up",
            Cause::Rounding { .. } => "a rounding rule: the bill rounds the hours down",
            Cause::Hours {
                bill_hours,
                meter_hours,
            } if bill_hours > meter_hours => {
                "hours the meter did not see: the bill charges more hours than the meter saw"
            }
            Cause::Hours { .. } => {
                "hours the bill does not charge: the meter saw more hours than the bill charges"
            }
            Cause::MissingOnSheet => "a missing line on the sheet",
            Cause::NotOnBill => "not on the bill",
            Cause::Unknown => "unknown (the bill gives no hours)",
        }
    }
}

/// One instance's compute: the bill against the meter.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub instance: String,
    /// The compute the bill charges in the span, in the meter's currency (or the bill's own
    /// when the meter has no price).
    pub billed: Option<Money>,
    pub metered: Option<Money>,
    /// `billed - metered`, where both are known.
    pub difference: Option<Money>,
    pub cause: Cause,
    pub lines: Vec<usize>,
}

/// Lines whose resource id the ledger has never seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Unexplained {
    /// `None` for lines that name no resource.
    pub resource: Option<String>,
    /// Shared by every finding of the service: a bill of a million unknown resources names
    /// a few services.
    pub service: Arc<str>,
    pub amounts: Amounts,
    /// Nearly always one, held in place.
    pub lines: SmallVec<[usize; 1]>,
}

/// One place the bill and the ledger differ. The kinds a bill has a few of are boxed: a bill
/// of a million resources the ledger does not know has a million unexplained findings, and
/// each is no larger than an [`Unexplained`].
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    Leftover(Box<Leftover>),
    Transfer(Box<Transfer>),
    Overlap(Box<OverlapCharge>),
    Mismatch(Box<Mismatch>),
    Unexplained(Unexplained),
}

/// The five kinds, in the order the report lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    Leftover,
    Transfer,
    Overlap,
    Mismatch,
    Unexplained,
}

impl FindingKind {
    /// The kind's name in `--json` and in headings.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Leftover => "leftover",
            FindingKind::Transfer => "transfer",
            FindingKind::Overlap => "overlap",
            FindingKind::Mismatch => "mismatch",
            FindingKind::Unexplained => "unexplained",
        }
    }
}

impl Finding {
    pub fn kind(&self) -> FindingKind {
        match self {
            Finding::Leftover(_) => FindingKind::Leftover,
            Finding::Transfer(_) => FindingKind::Transfer,
            Finding::Overlap(_) => FindingKind::Overlap,
            Finding::Mismatch(_) => FindingKind::Mismatch,
            Finding::Unexplained(_) => FindingKind::Unexplained,
        }
    }

    /// What the finding amounts to: the charges, or for a mismatch its difference (the
    /// bill's compute where the meter has no figure).
    pub fn amounts(&self) -> Amounts {
        self.amounts_ref().into_owned()
    }

    /// [`Finding::amounts`], borrowed where the finding holds them: the totals of a million
    /// findings copy none.
    pub fn amounts_ref(&self) -> Cow<'_, Amounts> {
        match self {
            Finding::Leftover(f) => Cow::Borrowed(&f.amounts),
            Finding::Transfer(f) => Cow::Borrowed(&f.amounts),
            Finding::Overlap(f) => Cow::Borrowed(&f.amounts),
            Finding::Unexplained(f) => Cow::Borrowed(&f.amounts),
            Finding::Mismatch(f) => Cow::Owned(Amounts(
                f.difference
                    .or(f.billed)
                    .or(f.metered.map(|m| Money::new(-m.amount, m.currency)))
                    .into_iter()
                    .collect(),
            )),
        }
    }

    /// The bill lines behind it, as indexes into the lines given.
    pub fn lines(&self) -> &[usize] {
        match self {
            Finding::Leftover(f) => &f.lines,
            Finding::Transfer(f) => &f.lines,
            Finding::Overlap(f) => &f.lines,
            Finding::Mismatch(f) => &f.lines,
            Finding::Unexplained(f) => &f.lines,
        }
    }

    /// The ledger's instances it concerns.
    pub fn instances(&self) -> Vec<&str> {
        match self {
            Finding::Leftover(f) => vec![f.instance.as_str()],
            Finding::Transfer(f) => f.instances.iter().map(String::as_str).collect(),
            Finding::Overlap(f) => vec![f.first.as_str(), f.second.as_str()],
            Finding::Mismatch(f) => vec![f.instance.as_str()],
            Finding::Unexplained(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::sync::Arc;

    use rust_decimal::Decimal;
    use smallvec::smallvec;

    use super::{Amounts, Cause, Finding, Mismatch, Unexplained};
    use crate::money::{Currency, Money};

    #[test]
    fn one_currency_is_held_in_place_and_each_is_summed_apart() {
        let money = |n: i64, c: Currency| Money::new(Decimal::from(n), c);
        let mut a = Amounts::default();
        a.add(money(1, Currency::USD));
        a.add(money(2, Currency::USD));
        assert!(!a.0.spilled());
        a.add(money(5, Currency::CNY));
        assert_eq!(a.get(Currency::USD), Some(money(3, Currency::USD)));
        assert_eq!(a.get(Currency::CNY), Some(money(5, Currency::CNY)));
        assert_eq!(a.0.len(), 2);
    }

    #[test]
    fn amounts_are_borrowed_where_held_and_made_for_a_mismatch() {
        let usd = |n: i64| Money::new(Decimal::from(n), Currency::USD);
        let held = Finding::Unexplained(Unexplained {
            resource: None,
            service: Arc::from("EC2"),
            amounts: Amounts(smallvec![usd(3)]),
            lines: smallvec![0],
        });
        assert!(matches!(held.amounts_ref(), Cow::Borrowed(a) if *a == held.amounts()));
        assert_eq!(held.amounts(), Amounts(smallvec![usd(3)]));
        let made = Finding::Mismatch(Box::new(Mismatch {
            instance: "i-1".into(),
            billed: None,
            metered: Some(usd(2)),
            difference: None,
            cause: Cause::NotOnBill,
            lines: Vec::new(),
        }));
        assert_eq!(made.amounts_ref().into_owned(), Amounts(smallvec![usd(-2)]));
    }
}
