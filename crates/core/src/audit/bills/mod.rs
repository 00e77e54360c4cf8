//! Reading a bill: the format told from the header row, each row into a [`BillLine`], and an
//! error that names the file, line and column of anything that cannot be read.
//!
//! Four formats, told apart by their header: FOCUS 1.x ([`focus`]), the legacy AWS Cost and
//! Usage Report ([`aws_cur`]), and the Alibaba ([`alibaba`]) and Tencent ([`tencent`])
//! bill-details exports. A UTF-8 byte-order mark is dropped. Blank rows and rows whose first
//! field starts with `#` (a note above or between the rows) are skipped anywhere, and so are
//! the rows that are no charge: a repeat of the header, and the total row the Chinese
//! consoles add at the end (first field `合计`, `总计`, `小计`, `总额` or `Total`).

mod ahead;
mod alibaba;
mod aws_cur;
mod aws_usage;
mod focus;
mod regions;
mod rows;
mod stream;
mod table;
mod tencent;
mod time;
mod words;

use jiff::Timestamp;

pub use self::ahead::each_line_read_ahead;
use self::rows::{CsvRows, Rows};
pub use self::stream::MAX_RECORD_BYTES;
use self::table::{Row, Table, expected};
use super::{BillFormat, BillLine};
use crate::money::Currency;
use crate::text::one_line;

/// A bill that cannot be read, with where and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct BillError {
    pub file: String,
    /// 1-based; 1 is the header.
    pub line: u64,
    /// 1-based column number, or the column's name where it has one (`BilledCost`).
    pub column: String,
    /// What was found and what was expected.
    pub message: String,
}

/// Every line of the bill `file` (its name, for errors and evidence) whose bytes (already
/// decompressed) are `bytes`.
pub fn read_bill(file: &str, bytes: &[u8]) -> Result<Vec<BillLine>, BillError> {
    read_bill_from(file, bytes)
}

/// Every line of the bill `file` read from `source` (see [`each_line`]), collected.
pub fn read_bill_from(file: &str, source: impl std::io::Read) -> Result<Vec<BillLine>, BillError> {
    let mut lines = Vec::new();
    each_line(file, source, |l| lines.push(l))?;
    Ok(lines)
}

/// Each line of the bill `file` read from `source` as a stream, handed to `take` in order:
/// one row in memory at a time, none longer than [`MAX_RECORD_BYTES`]. An error from
/// `source` (a gzip stream cut short, a bound passed) is the bill's error on the line
/// reached. A bill whose last row is cut short (fewer fields than the header, or a quoted
/// field never closed) is an error, never a bill one line shorter.
pub fn each_line(
    file: &str,
    source: impl std::io::Read,
    take: impl FnMut(BillLine),
) -> Result<(), BillError> {
    each_line_of(file, CsvRows::new(file, source)?, take)
}

/// [`each_line`] of the records `rows` gives.
fn each_line_of(
    file: &str,
    mut rows: impl Rows,
    mut take: impl FnMut(BillLine),
) -> Result<(), BillError> {
    let mut record = csv::StringRecord::new();
    let mut header = None;
    while rows.next(&mut record)? {
        if !is_note(&record) {
            header = Some((
                line_of(&record),
                record.iter().map(str::to_string).collect(),
            ));
            break;
        }
    }
    let Some((header_line, columns)) = header else {
        return Err(BillError {
            file: file.to_string(),
            line: 1,
            column: "1".into(),
            message: crate::t!(
                "bill-no-header",
                expected = crate::t!("bill-expected-header")
            ),
        });
    };
    let table = Table::new(file, columns);
    let format = detect(&table, header_line)?;
    let (check, read): (Check, Read) = match format {
        BillFormat::Focus => (focus::check, focus::read),
        BillFormat::AwsCur => (aws_cur::check, aws_cur::read),
        BillFormat::Alibaba => (alibaba::check, alibaba::read),
        BillFormat::Tencent => (tencent::check, tencent::read),
    };
    check(&table, header_line)?;
    let chinese = matches!(format, BillFormat::Alibaba | BillFormat::Tencent);
    let width = table.columns.len();
    // The last record read, with whether it was a row of charges and its width.
    let mut last: Option<(u64, Option<usize>)> = None;
    while rows.next(&mut record)? {
        let line = line_of(&record);
        if is_note(&record) || is_header_repeat(&table, &record) || chinese && is_total(&record) {
            // Empty fields split by commas are a row cut right after its first, when last.
            let cut_blank = record.len() > 1 && record.iter().all(|f| f.trim().is_empty());
            last = Some((line, cut_blank.then_some(record.len())));
            continue;
        }
        last = Some((line, Some(record.len())));
        // Only the fields past the header's are looked at: walking to them is a row's work.
        let past = |i: &usize| record.get(*i).is_some_and(|f| !f.trim().is_empty());
        if let Some(extra) = (width..record.len()).find(past) {
            return Err(BillError {
                file: file.to_string(),
                line,
                column: (extra + 1).to_string(),
                message: crate::t!(
                    "bill-too-many-fields",
                    width = width.to_string(),
                    found = record.len().to_string()
                ),
            });
        }
        let row = Row {
            table: &table,
            line,
            fields: &record,
        };
        match read(&row) {
            Ok(l) => take(l),
            // A short row that is the last is cut short, whatever its missing field lacks.
            Err(e) if record.len() < width => {
                let fields = record.len();
                if rows.next(&mut record)? {
                    return Err(e);
                }
                return Err(cut_short(file, line, width, fields));
            }
            Err(e) => return Err(e),
        }
    }
    if let Some((line, _)) = last.filter(|_| rows.ends_inside_quotes()) {
        return Err(BillError {
            file: file.to_string(),
            line,
            column: "1".into(),
            message: crate::t!("bill-open-quote").into_owned(),
        });
    }
    if let Some((line, Some(fields))) = last.filter(|(_, f)| f.is_some_and(|f| f < width)) {
        return Err(cut_short(file, line, width, fields));
    }
    Ok(())
}

/// The error of a last row with fewer fields than the header.
fn cut_short(file: &str, line: u64, width: usize, fields: usize) -> BillError {
    BillError {
        file: file.to_string(),
        line,
        column: (fields + 1).to_string(),
        message: crate::t!(
            "bill-cut-short",
            width = width.to_string(),
            found = fields.to_string()
        ),
    }
}

/// The line a record starts on (1 is the first).
fn line_of(record: &csv::StringRecord) -> u64 {
    record.position().map_or(1, csv::Position::line)
}

type Check = fn(&Table, u64) -> Result<(), BillError>;
type Read = fn(&Row) -> Result<BillLine, BillError>;

/// The format whose columns the header has.
fn detect(table: &Table, line: u64) -> Result<BillFormat, BillError> {
    if focus::is_focus(table) {
        Ok(BillFormat::Focus)
    } else if aws_cur::is_cur(table) {
        Ok(BillFormat::AwsCur)
    } else if tencent::is_tencent(table) {
        Ok(BillFormat::Tencent)
    } else if alibaba::is_alibaba(table) {
        Ok(BillFormat::Alibaba)
    } else {
        let seen: Vec<String> = table
            .columns
            .iter()
            .take(12)
            .map(|c| format!("`{}`", one_line(c, 40)))
            .collect();
        let more = if table.columns.len() > 12 {
            ", …"
        } else {
            ""
        };
        Err(BillError {
            file: table.file.to_string(),
            line,
            column: "1".into(),
            message: crate::t!(
                "bill-unknown-format",
                columns = format!("{}{more}", seen.join(", ")),
                expected = crate::t!("bill-expected-header")
            ),
        })
    }
}

/// A blank row, or a note whose first field starts with `#`.
fn is_note(fields: &csv::StringRecord) -> bool {
    fields.iter().all(|f| f.trim().is_empty())
        || fields
            .get(0)
            .is_some_and(|f| f.trim_start().starts_with('#'))
}

/// A repeat of the header, as an export stitched from pages has.
fn is_header_repeat(table: &Table, fields: &csv::StringRecord) -> bool {
    fields.len() == table.columns.len()
        && fields
            .iter()
            .zip(&table.columns)
            .all(|(f, c)| f.trim() == c)
}

/// The total row the Chinese consoles add at the end: its first field says so.
fn is_total(fields: &csv::StringRecord) -> bool {
    let first = fields.iter().map(str::trim).find(|f| !f.is_empty());
    first.is_some_and(|f| {
        ["合计", "总计", "小计", "Total", "总额"]
            .iter()
            .any(|t| f.starts_with(t))
    })
}

/// The Chinese consoles' local time, China Standard Time.
const CHINA_OFFSET_HOURS: i8 = 8;

/// The start and exclusive end of a row's charge period: `start` is required; the end is
/// `end`'s time, or the end of the day or month `start` names, or `start` itself for an
/// instant (a consumption or deduction time with no end).
fn finish_period(
    row: &Row,
    start: &'static [&'static str],
    end: &'static [&'static str],
    offset_hours: i8,
) -> Result<(Timestamp, Timestamp), BillError> {
    let Some((from, _)) = row.time(start, offset_hours)? else {
        return Err(row.missing(start, &crate::t!("bill-want-time")));
    };
    let until = match row.time(end, offset_hours)? {
        Some((p, _)) => p.start,
        None => from.end.unwrap_or(from.start),
    };
    if until < from.start {
        let (name, value) = row.raw(end).unwrap_or(("", ""));
        let want = crate::t!("bill-want-end-after-start");
        return Err(row.error(name, expected(&want, value)));
    }
    Ok((from.start, until))
}

/// The currency of a Chinese export: its currency column where it has one; otherwise CNY
/// for a Chinese header (the China site bills in yuan) and USD for an English one (the
/// international site's console).
fn export_currency(row: &Row, names: &'static [&'static str]) -> Result<Currency, BillError> {
    if let Some(c) = row.currency(names)? {
        return Ok(c);
    }
    let chinese = row.table.columns.iter().any(|c| !c.is_ascii());
    Ok(if chinese {
        Currency::CNY
    } else {
        Currency::USD
    })
}
