//! The CSV side of reading a bill: its bytes watched ([`Watched`]) on their way to the CSV
//! reader, and its records handed out one at a time, an error naming the line reached.

use super::BillError;
use super::stream::{MAX_RECORD_BYTES, Watched};
use crate::text::one_line;

/// A bill's records, one at a time.
pub(super) trait Rows {
    /// Reads the next record into `record`: false at the end of the file.
    fn next(&mut self, record: &mut csv::StringRecord) -> Result<bool, BillError>;

    /// Whether the bytes read end inside a quoted field: asked once the records are done.
    fn ends_inside_quotes(&self) -> bool;
}

/// The records of the bill `file` read from `source`.
pub(super) struct CsvRows<'f, R> {
    file: &'f str,
    reader: csv::Reader<Watched<R>>,
}

impl<'f, R: std::io::Read> CsvRows<'f, R> {
    /// Starts reading, a byte-order mark dropped.
    pub fn new(file: &'f str, source: R) -> Result<CsvRows<'f, R>, BillError> {
        let mut watched = Watched::new(source, MAX_RECORD_BYTES);
        watched.skip_bom().map_err(|e| source_error(file, 1, &e))?;
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(watched);
        Ok(CsvRows { file, reader })
    }
}

impl<R: std::io::Read> Rows for CsvRows<'_, R> {
    fn next(&mut self, record: &mut csv::StringRecord) -> Result<bool, BillError> {
        let more = self
            .reader
            .read_record(record)
            .map_err(|e| csv_error(self.file, self.reader.position().line(), &e))?;
        self.reader.get_mut().row_done();
        Ok(more)
    }

    fn ends_inside_quotes(&self) -> bool {
        self.reader.get_ref().ends_inside_quotes()
    }
}

/// An error the source gave (a gzip stream cut short, a bound passed), on the line reached.
fn source_error(file: &str, line: u64, e: &std::io::Error) -> BillError {
    BillError {
        file: file.to_string(),
        line,
        column: "1".into(),
        message: one_line(&e.to_string(), 200),
    }
}

/// The error of a file that is not CSV text, or whose source failed, at `reached` (the line
/// the reader had reached) where the error does not say.
fn csv_error(file: &str, reached: u64, e: &csv::Error) -> BillError {
    let (line, message) = match e.kind() {
        csv::ErrorKind::Utf8 { pos, err } => (
            pos.as_ref().map_or(reached, csv::Position::line),
            crate::t!("bill-not-utf8", field = (err.field() + 1).to_string()),
        ),
        csv::ErrorKind::Io(io) => return source_error(file, reached, io),
        _ => (
            e.position().map_or(reached, csv::Position::line),
            crate::t!("bill-not-csv", error = one_line(&e.to_string(), 120)),
        ),
    };
    BillError {
        file: file.to_string(),
        line,
        column: "1".into(),
        message,
    }
}
