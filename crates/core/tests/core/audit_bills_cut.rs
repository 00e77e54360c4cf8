//! A bill whose last line is cut short is an error naming the file and that line, never a
//! bill one charge lighter: cut anywhere in the last line of each format's fixture, the reader
//! refuses every cut that leaves fewer fields than the header (counted by the `csv` crate) or
//! a quoted field open, and reads every other cut as the whole count of lines.

use gpumeter_core::audit::read_bill;

const CUR: &[u8] = include_bytes!("../../../../tests/fixtures/bills/aws-cur.csv");
const FOCUS: &[u8] = include_bytes!("../../../../tests/fixtures/bills/focus-aws.csv");
const ALIBABA: &[u8] = include_bytes!("../../../../tests/fixtures/bills/alibaba-bill-details.csv");
const TENCENT: &[u8] = include_bytes!("../../../../tests/fixtures/bills/tencent-bill-details.csv");

/// The fixture as text ending in its last charge row, with no line break after it: the
/// console's total row (which charges nothing) left off.
fn ending_in_a_charge(bytes: &[u8]) -> String {
    let text = std::str::from_utf8(bytes).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("合计"))
        .collect();
    kept.join("\n")
}

/// The header's width and the fields of the last record of `text`, as the `csv` crate reads
/// them.
fn widths(text: &str) -> (usize, usize) {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    (records[0].len(), records.last().unwrap().len())
}

fn cuts_of_the_last_line(name: &str, bytes: &[u8]) -> usize {
    let whole = ending_in_a_charge(bytes);
    let count = read_bill(name, whole.as_bytes()).unwrap().len();
    let last_line = whole.lines().count() as u64;
    let last_start = whole.rfind('\n').unwrap() + 1;
    let mut refused = 0;
    for cut in (last_start + 1..whole.len()).filter(|&c| whole.is_char_boundary(c)) {
        let text = &whole[..cut];
        let open_quote = text[last_start..].matches('"').count() % 2 == 1;
        let (header, fields) = widths(text);
        match read_bill(name, text.as_bytes()) {
            Err(e) => {
                assert!(
                    open_quote || fields < header,
                    "{name} cut at {cut}: a whole last row refused: {e}"
                );
                assert_eq!((e.file.as_str(), e.line), (name, last_line), "{e}");
                assert!(e.message.contains("cut short"), "{e}");
                if fields < header && !open_quote {
                    assert!(
                        e.message.contains(&format!("expected {header} fields")),
                        "{e}"
                    );
                }
                refused += 1;
            }
            Ok(lines) => {
                assert!(
                    !open_quote && fields == header,
                    "{name} cut at {cut} ({fields} of {header} fields) read as {} lines",
                    lines.len()
                );
                assert_eq!(lines.len(), count, "{name} cut at {cut}");
            }
        }
    }
    refused
}

#[test]
fn a_cut_last_line_is_refused_in_every_format() {
    for (name, bytes) in [
        ("aws-cur.csv", CUR),
        ("focus-aws.csv", FOCUS),
        ("alibaba-bill-details.csv", ALIBABA),
        ("tencent-bill-details.csv", TENCENT),
    ] {
        let refused = cuts_of_the_last_line(name, bytes);
        assert!(refused > 10, "{name}: only {refused} cuts refused");
    }
}

#[test]
fn a_quoted_last_field_left_open_is_refused_where_its_fields_are_all_there() {
    let header = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId";
    let whole = format!(
        "{header}\n1.00,2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,USD,i-1\n\
         20.48,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USD,\"i-2"
    );
    let e = read_bill("f.csv", whole.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (3, "1"));
    assert!(e.message.contains("ends inside a quoted field"), "{e}");
    let closed = format!("{whole}\"");
    assert_eq!(read_bill("f.csv", closed.as_bytes()).unwrap().len(), 2);
}

#[test]
fn a_short_row_in_the_middle_keeps_its_own_error() {
    let header = "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId";
    let text = format!(
        "{header}\n1.00,2026-11-01T00:00:00Z\n\
         2.00,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USD,i-2\n"
    );
    let e = read_bill("f.csv", text.as_bytes()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(!e.message.contains("cut short"), "{e}");
    // The same row last is cut short.
    let last = format!(
        "{header}\n2.00,2026-11-01T01:00:00Z,2026-11-01T02:00:00Z,USD,i-2\n1.00,2026-11-01T00:00:00Z\n"
    );
    let e = read_bill("f.csv", last.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (3, "3"));
    assert!(e.message.contains("cut short: expected 5 fields"), "{e}");
}
