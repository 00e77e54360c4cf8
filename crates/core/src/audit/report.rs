//! What one audit returns: the span, the tolerance it held the bill to, what it read and every
//! finding, with totals per kind and currency.

use jiff::Timestamp;
use rust_decimal::Decimal;
use rust_decimal::dec;

use super::findings::{Amounts, Finding, FindingKind};

/// How far the bill may be from the meter and still agree: `percent` of the meter's amount or
/// `floor` units of the currency (0.01: a cent, a fen), whichever is larger. A provider rounds
/// each line to the cent, so a month of hourly lines can differ from the meter's exact sum by
/// a few cents without anything being wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tolerance {
    pub percent: Decimal,
    pub floor: Decimal,
}

impl Default for Tolerance {
    /// 1 % or 0.01 of the currency.
    fn default() -> Self {
        Tolerance {
            percent: Decimal::ONE,
            floor: dec!(0.01),
        }
    }
}

impl Tolerance {
    /// `percent` of the meter's amount or the floor of 0.01.
    pub fn percent(percent: Decimal) -> Self {
        Tolerance {
            percent,
            ..Tolerance::default()
        }
    }

    /// The largest difference allowed against `expected`.
    pub fn allowed(&self, expected: Decimal) -> Decimal {
        (expected.abs() * self.percent / Decimal::ONE_HUNDRED).max(self.floor)
    }

    /// `actual` is within the tolerance of `expected`.
    pub fn agrees(&self, expected: Decimal, actual: Decimal) -> bool {
        (actual - expected).abs() <= self.allowed(expected)
    }
}

/// The bill against the ledger over `[since, until)`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditReport {
    pub since: Timestamp,
    pub until: Timestamp,
    pub tolerance: Tolerance,
    /// Every line given.
    pub lines_read: usize,
    /// The lines charged (at least partly) within the span.
    pub lines_in_span: usize,
    /// What the lines in the span bill, pro rata at the span's edges.
    pub billed: Amounts,
    pub findings: Vec<Finding>,
}

impl AuditReport {
    /// The bill and the ledger agree within the tolerance.
    pub fn agrees(&self) -> bool {
        self.findings.is_empty()
    }

    /// The findings of one kind.
    pub fn of(&self, kind: FindingKind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind() == kind)
    }

    /// Each kind found, with the sum of its findings' amounts per currency (a mismatch adds
    /// its signed difference).
    pub fn totals(&self) -> Vec<(FindingKind, Amounts)> {
        let mut out: Vec<(FindingKind, Amounts)> = Vec::new();
        for f in &self.findings {
            let kind = f.kind();
            let i = if let Some(i) = out.iter().position(|(k, _)| *k == kind) {
                i
            } else {
                out.push((kind, Amounts::default()));
                out.len() - 1
            };
            out[i].1.add_all(&f.amounts_ref());
        }
        out.sort_by_key(|(k, _)| *k);
        out
    }

    /// What the findings put in question, per currency: the charges of every kind but
    /// mismatches (a leftover's net of the refunds already on the bill, and only once the
    /// resource ended: what still exists bills rightly), plus each mismatch's overcharge (a
    /// bill below the meter is not money to ask back).
    pub fn disputed(&self) -> Amounts {
        let mut out = Amounts::default();
        for f in &self.findings {
            if matches!(f, Finding::Leftover(l) if !l.ended) {
                continue;
            }
            for &m in &f.amounts_ref().0 {
                if f.kind() != FindingKind::Mismatch
                    || m.amount.is_sign_positive() && !m.amount.is_zero()
                {
                    out.add(m);
                }
            }
        }
        out
    }
}
