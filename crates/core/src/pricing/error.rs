//! Errors from loading a price sheet, each pointing at a file, line and column.

use std::fmt;
use std::ops::Range;

/// What went wrong, for callers and tests that need more than the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// Not valid TOML, or a value of the wrong type.
    Syntax,
    /// A key the format does not have (often a typo).
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A price below zero.
    NegativePrice,
    /// A number that is not a decimal (`"0,09"`, `nan`, a quoted word).
    BadNumber,
    /// A TOML float with more significant digits than an `f64` keeps: it must be quoted.
    InexactFloat,
    /// A value out of its range (a zero billing step, a negative memory size, a bad date).
    BadValue,
    /// A data unit other than `GiB` or `GB`.
    UnknownUnit,
    /// A currency that is not three capital letters.
    BadCurrency,
    /// A sheet that extends another states a different currency.
    CurrencyChanged,
    /// A stop-policy fraction outside 0..=1, or an unknown policy word.
    BadStopPolicy,
    /// Two SKUs with the same name in one file.
    DuplicateSku,
    /// A SKU with no on-demand, spot, monthly or compute-unit price.
    NoPrice,
    /// `extends` names no bundled sheet.
    UnknownExtends,
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub line: usize,
    pub column: usize,
}

impl Location {
    pub const START: Location = Location { line: 1, column: 1 };

    /// The line and column of a byte offset in `text`. Offsets past the end or inside a
    /// multi-byte character are clamped, never a panic.
    pub fn of_offset(text: &str, offset: usize) -> Location {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[..end];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }
}

/// A sheet that could not be loaded. Nothing of it was kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetError {
    /// The file name as given (or `pricing/<id>.toml` for a bundled sheet).
    pub source_name: String,
    /// Where in the file; `None` only when the file could not be read at all.
    pub location: Option<Location>,
    pub kind: ErrorKind,
    pub message: String,
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Some(Location { line, column }) => {
                write!(f, "{}:{line}:{column}: {}", self.source_name, self.message)
            }
            None => write!(f, "{}: {}", self.source_name, self.message),
        }
    }
}

impl std::error::Error for SheetError {}

/// The text being loaded and its name, to turn byte spans into errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    pub fn error_at(&self, span: Range<usize>, kind: ErrorKind, message: String) -> SheetError {
        SheetError {
            source_name: self.name.to_string(),
            location: Some(Location::of_offset(self.text, span.start)),
            kind,
            message,
        }
    }

    /// The source text of a span, when the span is inside the text.
    pub fn snippet(&self, span: Range<usize>) -> Option<&str> {
        self.text.get(span)
    }

    pub fn toml_error(&self, error: &toml::de::Error) -> SheetError {
        let raw = error.message();
        // serde words these two messages the same way for every format, so the kind can be
        // read from them; the rest (bad syntax, wrong type) is a syntax error.
        let (kind, message) = if let Some(rest) = raw.strip_prefix("unknown field") {
            (ErrorKind::UnknownKey, format!("unknown key{rest}"))
        } else if let Some(rest) = raw.strip_prefix("missing field") {
            (ErrorKind::MissingKey, format!("missing key{rest}"))
        } else {
            (ErrorKind::Syntax, raw.to_string())
        };
        self.error_at(error.span().unwrap_or(0..0), kind, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_one_based_lines_and_columns() {
        let text = "a = 1\nbé = 2\n";
        assert_eq!(Location::of_offset(text, 0), Location::START);
        assert_eq!(
            Location::of_offset(text, 4),
            Location { line: 1, column: 5 }
        );
        assert_eq!(
            Location::of_offset(text, 6),
            Location { line: 2, column: 1 }
        );
        // `é` is two bytes but one column: the space after it is column 3.
        assert_eq!(
            Location::of_offset(text, 9),
            Location { line: 2, column: 3 }
        );
        // Inside `é`, or past the end: clamped.
        assert_eq!(
            Location::of_offset(text, 8),
            Location { line: 2, column: 2 }
        );
        assert_eq!(
            Location::of_offset(text, 999),
            Location { line: 3, column: 1 }
        );
    }

    #[test]
    fn display_is_file_line_column_message() {
        let src = Source {
            name: "pricing/x.toml",
            text: "a = 1\n  b = 2\n",
        };
        let err = src.error_at(8..9, ErrorKind::UnknownKey, "unknown key `b`".into());
        assert_eq!(err.to_string(), "pricing/x.toml:2:3: unknown key `b`");
    }
}
