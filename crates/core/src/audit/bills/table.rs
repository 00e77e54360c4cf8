//! The CSV under every format: the header's columns found by name (any of a column's
//! spellings), each row's fields read as text, decimals, currencies and times, and an error
//! naming the file, line and column of a value that cannot be read.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

use hashbrown::HashMap;
use rust_decimal::Decimal;

use super::BillError;
use super::time::{Period, parse_time};
use crate::money::{Currency, Money};
use crate::text::{one_line, one_line_cow};

/// The longest text kept from one field of a bill (ids, services, usage descriptions): long
/// enough for an Azure resource id whole, so ids still match; a screen cuts shorter.
const MAX_TEXT: usize = 512;

/// A column's names, any of which the header may have.
type Spellings = &'static [&'static str];

/// The name a column has in the header, and its place.
type Found = (&'static str, usize);

/// The most lists of spellings [`Table::find`] remembers: more than any format asks for.
const FOUND_MAX: usize = 64;

/// The longest found value an error quotes.
const MAX_QUOTED: usize = 60;

/// The header row of a bill: where each column is.
pub(super) struct Table<'a> {
    pub file: &'a str,
    /// The file's name once for all its lines (see [`Table::line_file`]).
    shared: Arc<str>,
    /// The header's columns, trimmed, in order.
    pub columns: Vec<String>,
    index: HashMap<String, usize>,
    /// What [`Table::find`] found for each list of spellings asked, by the list's address
    /// (static, so never another list's): every row asks for the same dozen lists.
    found: RefCell<Vec<(Spellings, Option<Found>)>>,
    /// The place in `found` after the list last asked.
    next: Cell<usize>,
    /// The last time read in each time column, as text and as read: the rows of a bill
    /// share their hour a thousand at a time, and reading a time is most of a row's work.
    times: RefCell<Vec<LastTime>>,
}

/// A time column's last value, read at `offset_hours`.
struct LastTime {
    column: usize,
    offset_hours: i8,
    text: String,
    period: Period,
}

impl<'a> Table<'a> {
    pub fn new(file: &'a str, columns: Vec<String>) -> Self {
        let mut index = HashMap::new();
        for (i, c) in columns.iter().enumerate() {
            index.entry(c.clone()).or_insert(i);
        }
        Table {
            file,
            shared: Arc::from(file),
            columns,
            index,
            found: RefCell::new(Vec::new()),
            next: Cell::new(0),
            times: RefCell::new(Vec::new()),
        }
    }

    /// The file's name for a line read from it: one string shared by every line, not one
    /// made for each.
    pub fn line_file(&self) -> Arc<str> {
        Arc::clone(&self.shared)
    }

    /// The first of `names` the header has, with its position.
    pub fn find(&self, names: &'static [&'static str]) -> Option<(&'static str, usize)> {
        let mut found = self.found.borrow_mut();
        // Every row asks for the same lists in the same order: the one after the last asked
        // is tried before the others.
        let asked = |&(k, _): &(Spellings, Option<Found>)| std::ptr::eq(k, names);
        let next = self.next.get();
        let memo = match found.get(next) {
            Some(entry) if asked(entry) => Some(next),
            _ => found.iter().position(asked),
        };
        if let Some(at) = memo.and_then(|i| found.get(i).map(|&(_, at)| (i, at))) {
            self.next.set(at.0 + 1);
            return at.1;
        }
        let at = names
            .iter()
            .find_map(|n| self.index.get(*n).map(|&i| (*n, i)));
        // The lists are constants; should one be copied to a new address for each use, the
        // memo stops growing and the header is asked.
        if found.len() < FOUND_MAX {
            found.push((names, at));
        }
        at
    }

    /// Whether the header has one of `names`.
    pub fn has(&self, names: &'static [&'static str]) -> bool {
        self.find(names).is_some()
    }

    /// An error on the header line when none of `names` is there.
    pub fn require(&self, line: u64, names: &'static [&'static str]) -> Result<(), BillError> {
        if self.has(names) {
            return Ok(());
        }
        Err(BillError {
            file: self.file.to_string(),
            line,
            column: names[0].to_string(),
            message: format!("expected a column named {}", quoted_list(names)),
        })
    }
}

/// `a`, `b` or `c`.
pub(super) fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One data row of a bill, read through its table's header.
pub(super) struct Row<'t, 'a> {
    pub table: &'t Table<'a>,
    pub line: u64,
    pub fields: &'t csv::StringRecord,
}

impl Row<'_, '_> {
    /// The trimmed value of the first of `names` the header has, with that column's name;
    /// `None` when the column is absent or the field is empty.
    pub fn raw(&self, names: &'static [&'static str]) -> Option<(&'static str, &str)> {
        let (name, i) = self.table.find(names)?;
        let value = self.fields.get(i)?.trim();
        (!value.is_empty()).then_some((name, value))
    }

    /// The value as one safe line of text, for ids, names and descriptions.
    pub fn text(&self, names: &'static [&'static str]) -> Option<String> {
        self.text_ref(names).map(Cow::into_owned)
    }

    /// [`Row::text`], borrowed from the row where the field is one safe line already.
    pub fn text_ref(&self, names: &'static [&'static str]) -> Option<Cow<'_, str>> {
        self.raw(names)
            .map(|(_, v)| one_line_cow(v, MAX_TEXT))
            .filter(|v| !v.is_empty())
    }

    /// An error on this row in `column`.
    pub fn error(&self, column: &str, message: String) -> BillError {
        BillError {
            file: self.table.file.to_string(),
            line: self.line,
            column: column.to_string(),
            message,
        }
    }

    /// A decimal, when the field has one; an error when it has something else.
    pub fn decimal(&self, names: &'static [&'static str]) -> Result<Option<Decimal>, BillError> {
        let Some((name, value)) = self.raw(names) else {
            return Ok(None);
        };
        parse_decimal(value)
            .map(Some)
            .ok_or_else(|| self.error(name, expected(&crate::t!("bill-want-decimal"), value)))
    }

    /// A decimal that must be there.
    pub fn required_decimal(&self, names: &'static [&'static str]) -> Result<Decimal, BillError> {
        self.decimal(names)?
            .ok_or_else(|| self.missing(names, &crate::t!("bill-want-decimal")))
    }

    /// A currency code, when the field has one.
    pub fn currency(&self, names: &'static [&'static str]) -> Result<Option<Currency>, BillError> {
        let Some((name, value)) = self.raw(names) else {
            return Ok(None);
        };
        value
            .parse()
            .map(Some)
            .map_err(|_| self.error(name, expected(&crate::t!("bill-want-currency-code"), value)))
    }

    /// An amount in `currency`, when the field has one.
    pub fn money(
        &self,
        names: &'static [&'static str],
        currency: Currency,
    ) -> Result<Option<Money>, BillError> {
        Ok(self.decimal(names)?.map(|a| Money::new(a, currency)))
    }

    /// A time, when the field has one; a time with no zone is read at `offset_hours` from UTC.
    pub fn time(
        &self,
        names: &'static [&'static str],
        offset_hours: i8,
    ) -> Result<Option<(Period, &'static str)>, BillError> {
        let Some((name, value)) = self.raw(names) else {
            return Ok(None);
        };
        let column = self.table.find(names).map_or(usize::MAX, |(_, i)| i);
        let mut times = self.table.times.borrow_mut();
        let last = times
            .iter_mut()
            .find(|t| t.column == column && t.offset_hours == offset_hours);
        if let Some(last) = &last
            && last.text == value
        {
            return Ok(Some((last.period, name)));
        }
        let period = parse_time(value, offset_hours).ok_or_else(|| {
            self.error(name, expected(&crate::t!("bill-want-time-or-local"), value))
        })?;
        if let Some(last) = last {
            last.text.clear();
            last.text.push_str(value);
            last.period = period;
        } else {
            times.push(LastTime {
                column,
                offset_hours,
                text: value.to_string(),
                period,
            });
        }
        Ok(Some((period, name)))
    }

    /// The error for a value that must be there and is not.
    pub fn missing(&self, names: &'static [&'static str], what: &str) -> BillError {
        let column = self.table.find(names).map_or(names[0], |(n, _)| n);
        self.error(column, crate::t!("bill-expected-empty", what = what))
    }
}

/// "expected WHAT, found `VALUE`", the value made one short safe line.
pub(super) fn expected(what: &str, value: &str) -> String {
    let value = one_line(value, MAX_QUOTED);
    crate::t!("bill-expected-found", what = what, value = value)
}

/// A plain decimal (`12.50`, `-0.3`, `.5`) or one in E notation (`1.2E-3`), as FOCUS allows;
/// no currency symbols, units or thousands separators.
pub(super) fn parse_decimal(value: &str) -> Option<Decimal> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let allowed = |b: u8| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+');
    if digits.is_empty()
        || !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        || !digits.bytes().all(allowed)
    {
        return None;
    }
    if value.bytes().any(|b| matches!(b, b'e' | b'E')) {
        Decimal::from_scientific(value).ok()
    } else {
        value.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    const A: &[&str] = &["a", "alpha"];
    const B: &[&str] = &["b"];
    const C: &[&str] = &["gamma", "c"];
    const MISSING: &[&str] = &["z"];

    /// The lists are found where the header has them whatever order they are asked in, the
    /// same order each row or another.
    #[test]
    fn each_list_is_found_at_its_column_in_any_order_of_asking() {
        let table = Table::new("t.csv", ["c", "b", "alpha"].map(String::from).to_vec());
        let expected = |names: &[&str]| match names.first() {
            Some(&"a") => Some(("alpha", 2)),
            Some(&"b") => Some(("b", 1)),
            Some(&"gamma") => Some(("c", 0)),
            _ => None,
        };
        let orders: [&[&'static [&'static str]]; 4] = [
            &[A, B, C, MISSING],
            &[A, B, C, MISSING],
            &[C, A, MISSING, B],
            &[B, B, A],
        ];
        for order in orders {
            for &names in order {
                assert_eq!(table.find(names), expected(names), "{names:?}");
            }
        }
    }
}
