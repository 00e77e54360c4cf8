//! Lines that continue one another, held as one: the first line's charge and period, and the
//! strides that give the next line's period, index and line number.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::names::{Names, Sym};
use crate::audit::bill::{BillLine, ChargeKind};
use crate::money::{Currency, Money};

/// What lines of one run share, strings as numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Attrs {
    pub resource: Option<Sym>,
    service: Sym,
    kind: ChargeKind,
    region: Option<Sym>,
    to_region: Option<Sym>,
    unit: Option<Sym>,
    currency: Currency,
    pub file: u32,
}

impl Attrs {
    pub fn of(line: &BillLine, file: u32, names: &mut Names) -> Attrs {
        let mut opt = |s: &Option<String>| s.as_deref().map(|s| names.intern(s));
        Attrs {
            resource: opt(&line.resource_id),
            region: opt(&line.region),
            to_region: opt(&line.to_region),
            unit: opt(&line.unit),
            service: names.intern(&line.service),
            kind: line.kind,
            currency: line.billed.currency,
            file,
        }
    }
}

/// `count` lines: the k-th charges `billed` for `[start + k·step, start + (k+1)·step)`, is
/// the bill's line `index + k·index_stride`, at `line + k·line_stride` of its file.
#[derive(Debug)]
pub(super) struct Run {
    pub attrs: Attrs,
    billed: Decimal,
    quantity: Option<Decimal>,
    /// In nanoseconds since the epoch, and nanoseconds.
    start: i128,
    step: i128,
    index: usize,
    index_stride: usize,
    line: u64,
    line_stride: u64,
    pub count: usize,
}

/// The same value written the same way: `1.0` and `1.00` sum to different text.
fn same(a: Decimal, b: Decimal) -> bool {
    a == b && a.scale() == b.scale()
}

impl Run {
    pub fn new(attrs: Attrs, line: &BillLine, index: usize) -> Run {
        let start = line.start.as_nanosecond();
        Run {
            attrs,
            billed: line.billed.amount,
            quantity: line.quantity,
            start,
            step: line.end.as_nanosecond() - start,
            index,
            index_stride: 0,
            line: line.source.line,
            line_stride: 0,
            count: 1,
        }
    }

    /// Takes `line` (the bill's `index`-th) as the next of the run when it continues it.
    pub fn extend(&mut self, line: &BillLine, index: usize) -> bool {
        let n = self.count as i128;
        let start = line.start.as_nanosecond();
        let continues = self.step > 0
            && same(self.billed, line.billed.amount)
            && match (self.quantity, line.quantity) {
                (Some(a), Some(b)) => same(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
            && start == self.start + self.step * n
            && line.end.as_nanosecond() - start == self.step;
        if !continues || index <= self.index || line.source.line <= self.line {
            return false;
        }
        let (index_stride, line_stride) = (index - self.index, line.source.line - self.line);
        if self.count == 1 {
            (self.index_stride, self.line_stride) = (index_stride, line_stride);
        } else if index_stride != self.index_stride * self.count
            || line_stride != self.line_stride * self.count as u64
        {
            return false;
        }
        self.count += 1;
        true
    }

    /// The index and line number of each line, in order.
    pub fn places(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (0..self.count).map(|k| {
            (
                self.index + k * self.index_stride,
                self.line + k as u64 * self.line_stride,
            )
        })
    }

    /// The `k`-th line.
    pub fn charge<'a>(&self, k: usize, names: &'a Names) -> Option<Charge<'a>> {
        let from = self.start + self.step * k as i128;
        let name = |s: Option<Sym>| s.map(|s| names.get(s));
        Some(Charge {
            index: self.index + k * self.index_stride,
            resource: name(self.attrs.resource),
            service: names.get(self.attrs.service),
            kind: self.attrs.kind,
            region: name(self.attrs.region),
            to_region: name(self.attrs.to_region),
            unit: name(self.attrs.unit),
            start: Timestamp::from_nanosecond(from).ok()?,
            end: Timestamp::from_nanosecond(from + self.step).ok()?,
            quantity: self.quantity,
            billed: Money::new(self.billed, self.attrs.currency),
            keys: (self.attrs.resource, self.attrs.service),
        })
    }
}

/// One bill line as matching reads it back from the fold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Charge<'a> {
    /// The line's place among every line read, 0 first, across the files in the order given.
    pub index: usize,
    pub resource: Option<&'a str>,
    pub service: &'a str,
    pub kind: ChargeKind,
    pub region: Option<&'a str>,
    pub to_region: Option<&'a str>,
    pub unit: Option<&'a str>,
    pub start: Timestamp,
    pub end: Timestamp,
    pub quantity: Option<Decimal>,
    pub billed: Money,
    /// The resource's and the service's numbers: a key cheaper than their strings.
    pub(crate) keys: (Option<u32>, u32),
}
