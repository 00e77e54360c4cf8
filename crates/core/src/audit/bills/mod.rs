//! Reading a bill: the format told from the header row, each row into a [`BillLine`], and an
//! error that names the file, line and column of anything that cannot be read.
//!
//! Four formats, told apart by their header: FOCUS 1.x ([`focus`]), the legacy AWS Cost and
//! Usage Report ([`aws_cur`]), and the Alibaba ([`alibaba`]) and Tencent ([`tencent`])
//! bill-details exports. A UTF-8 byte-order mark is dropped. Blank rows and rows whose first
//! field starts with `#` (a note above or between the rows) are skipped anywhere, and so are
//! the rows that are no charge: a repeat of the header, and the total row the Chinese
//! consoles add at the end (first field `合计`, `总计`, `小计`, `总额` or `Total`).

mod alibaba;
mod aws_cur;
mod aws_usage;
mod focus;
mod regions;
mod table;
mod tencent;
mod time;
mod words;

use jiff::Timestamp;

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
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut records = reader.records();
    let mut header = None;
    for record in records.by_ref() {
        let (line, fields) = fields(file, record)?;
        if !is_note(&fields) {
            header = Some((line, fields));
            break;
        }
    }
    let Some((header_line, columns)) = header else {
        return Err(BillError {
            file: file.to_string(),
            line: 1,
            column: "1".into(),
            message: format!("the file has no header row: {EXPECTED}"),
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
    let mut lines = Vec::new();
    for record in records {
        let (line, fields) = fields(file, record)?;
        let chinese = matches!(format, BillFormat::Alibaba | BillFormat::Tencent);
        if is_note(&fields) || is_header_repeat(&table, &fields) || chinese && is_total(&fields) {
            continue;
        }
        if let Some(extra) = fields
            .iter()
            .skip(table.columns.len())
            .position(|f| !f.trim().is_empty())
        {
            return Err(BillError {
                file: file.to_string(),
                line,
                column: (table.columns.len() + extra + 1).to_string(),
                message: format!(
                    "expected at most {} fields, as many as the header has, found {}",
                    table.columns.len(),
                    fields.len()
                ),
            });
        }
        let row = Row {
            table: &table,
            line,
            fields: &fields,
        };
        lines.push(read(&row)?);
    }
    Ok(lines)
}

type Check = fn(&Table, u64) -> Result<(), BillError>;
type Read = fn(&Row) -> Result<BillLine, BillError>;

/// What an unknown header is told it could have been.
const EXPECTED: &str = "expected the header of a FOCUS 1.x export (BilledCost, \
    ChargePeriodStart, BillingCurrency), an AWS Cost and Usage Report (lineItem/UsageStartDate, \
    lineItem/UnblendedCost), an Alibaba Cloud bill-details export (账期 or 账单日期, 应付金额; \
    or BillingCycle, PretaxAmount) or a Tencent Cloud bill-details export (资源ID, 优惠后总价; \
    or Instance ID, Total Amount After Discount)";

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
            message: format!(
                "unknown bill format, columns seen: {}{more}; {EXPECTED}",
                seen.join(", ")
            ),
        })
    }
}

/// A record's line and its fields, or the error of a file that is not CSV text.
fn fields(
    file: &str,
    record: Result<csv::StringRecord, csv::Error>,
) -> Result<(u64, Vec<String>), BillError> {
    match record {
        Ok(r) => {
            let line = r.position().map_or(1, csv::Position::line);
            Ok((line, r.iter().map(str::to_string).collect()))
        }
        Err(e) => {
            let (line, message) = match e.kind() {
                csv::ErrorKind::Utf8 { pos, err } => (
                    pos.as_ref().map_or(1, csv::Position::line),
                    format!(
                        "expected UTF-8 text in field {}: save the export as CSV UTF-8",
                        err.field() + 1
                    ),
                ),
                _ => (
                    e.position().map_or(1, csv::Position::line),
                    format!("expected CSV text: {}", one_line(&e.to_string(), 120)),
                ),
            };
            Err(BillError {
                file: file.to_string(),
                line,
                column: "1".into(),
                message,
            })
        }
    }
}

/// A blank row, or a note whose first field starts with `#`.
fn is_note(fields: &[String]) -> bool {
    fields.iter().all(|f| f.trim().is_empty())
        || fields
            .first()
            .is_some_and(|f| f.trim_start().starts_with('#'))
}

/// A repeat of the header, as an export stitched from pages has.
fn is_header_repeat(table: &Table, fields: &[String]) -> bool {
    fields.len() == table.columns.len()
        && fields
            .iter()
            .zip(&table.columns)
            .all(|(f, c)| f.trim() == c)
}

/// The total row the Chinese consoles add at the end: its first field says so.
fn is_total(fields: &[String]) -> bool {
    let first = fields.iter().map(|f| f.trim()).find(|f| !f.is_empty());
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
    start: &[&'static str],
    end: &[&'static str],
    offset_hours: i8,
) -> Result<(Timestamp, Timestamp), BillError> {
    let Some((from, _)) = row.time(start, offset_hours)? else {
        return Err(row.missing(start, "a date and time such as 2026-11-03T10:00:00Z"));
    };
    let until = match row.time(end, offset_hours)? {
        Some((p, _)) => p.start,
        None => from.end.unwrap_or(from.start),
    };
    if until < from.start {
        let (name, value) = row.raw(end).unwrap_or(("", ""));
        return Err(row.error(name, expected("an end no earlier than the start", value)));
    }
    Ok((from.start, until))
}

/// The currency of a Chinese export: its currency column where it has one; otherwise CNY
/// for a Chinese header (the China site bills in yuan) and USD for an English one (the
/// international site's console).
fn export_currency(row: &Row, names: &[&'static str]) -> Result<Currency, BillError> {
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
