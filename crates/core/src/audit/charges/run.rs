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

/// `count` lines: the k-th charges `billed` for `[start + k·step, start + (k+1)·step)` (the
/// step is the first line's length, `end - start`), is the bill's line
/// `index + k·index_stride`, at `line + k·line_stride` of its file. A bill of as many
/// resources as lines holds one run a line, so the strides and the count are kept in 32 bits:
/// a line that would pass them starts a run of its own.
#[derive(Debug)]
pub(super) struct Run {
    pub attrs: Attrs,
    billed: Decimal,
    quantity: Option<Decimal>,
    start: Timestamp,
    end: Timestamp,
    index: usize,
    line: u64,
    index_stride: u32,
    line_stride: u32,
    pub count: u32,
}

/// The same value written the same way: `1.0` and `1.00` sum to different text.
fn same(a: Decimal, b: Decimal) -> bool {
    a == b && a.scale() == b.scale()
}

impl Run {
    pub fn new(attrs: Attrs, line: &BillLine, index: usize) -> Run {
        Run {
            attrs,
            billed: line.billed.amount,
            quantity: line.quantity,
            start: line.start,
            end: line.end,
            index,
            line: line.source.line,
            index_stride: 0,
            line_stride: 0,
            count: 1,
        }
    }

    /// The length of each line's period, in nanoseconds.
    fn step(&self) -> i128 {
        self.end.as_nanosecond() - self.start.as_nanosecond()
    }

    /// Takes `line` (the bill's `index`-th) as the next of the run when it continues it.
    pub fn extend(&mut self, line: &BillLine, index: usize) -> bool {
        let n = i128::from(self.count);
        let step = self.step();
        let start = line.start.as_nanosecond();
        let continues = step > 0
            && same(self.billed, line.billed.amount)
            && match (self.quantity, line.quantity) {
                (Some(a), Some(b)) => same(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
            && start == self.start.as_nanosecond() + step * n
            && line.end.as_nanosecond() - start == step;
        if !continues || index <= self.index || line.source.line <= self.line {
            return false;
        }
        let (Ok(index_stride), Ok(line_stride), Some(count)) = (
            u32::try_from(index - self.index),
            u32::try_from(line.source.line - self.line),
            self.count.checked_add(1),
        ) else {
            return false;
        };
        if self.count == 1 {
            (self.index_stride, self.line_stride) = (index_stride, line_stride);
        } else if u64::from(index_stride) != u64::from(self.index_stride) * u64::from(self.count)
            || u64::from(line_stride) != u64::from(self.line_stride) * u64::from(self.count)
        {
            return false;
        }
        self.count = count;
        true
    }

    /// The index and line number of each line, in order.
    pub fn places(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (0..self.count).map(|k| {
            (
                self.index + k as usize * self.index_stride as usize,
                self.line + u64::from(k) * u64::from(self.line_stride),
            )
        })
    }

    /// The `k`-th line.
    pub fn charge<'a>(&self, k: u32, names: &'a Names) -> Option<Charge<'a>> {
        let (start, end) = if k == 0 {
            (self.start, self.end)
        } else {
            let step = self.step();
            let from = self.start.as_nanosecond() + step * i128::from(k);
            (
                Timestamp::from_nanosecond(from).ok()?,
                Timestamp::from_nanosecond(from + step).ok()?,
            )
        };
        let name = |s: Option<Sym>| s.map(|s| names.get(s));
        Some(Charge {
            index: self.index + k as usize * self.index_stride as usize,
            resource: name(self.attrs.resource),
            service: names.get(self.attrs.service),
            kind: self.attrs.kind,
            region: name(self.attrs.region),
            to_region: name(self.attrs.to_region),
            unit: name(self.attrs.unit),
            start,
            end,
            quantity: self.quantity,
            billed: Money::new(self.billed, self.attrs.currency),
            keys: (self.attrs.resource.map(Sym::get), self.attrs.service.get()),
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
