//! Bills that cannot be read: each error names the file, the line and the column, and says
//! what was expected; no input makes the reader panic.

use gpumeter_core::audit::{BillFormat, read_bill};
use proptest::prelude::*;

const CUR: &str = include_str!("../../../../tests/fixtures/bills/aws-cur.csv");

/// The CUR fixture with the field `column` of data line `line` (1 is the header) replaced.
fn with_field(line: usize, column: &str, value: &str) -> String {
    let mut lines: Vec<String> = CUR.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header.iter().position(|c| *c == column).unwrap();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines[line - 1].as_bytes());
    let mut fields: Vec<String> = reader
        .records()
        .next()
        .unwrap()
        .unwrap()
        .iter()
        .map(String::from)
        .collect();
    fields[at] = value.to_string();
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    writer.write_record(&fields).unwrap();
    let row = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    lines[line - 1] = row.trim_end().to_string();
    lines.join("\n")
}

#[test]
fn a_bad_number_names_file_line_and_column() {
    let text = with_field(4, "lineItem/UnblendedCost", "abc");
    let e = read_bill("nov.csv", text.as_bytes()).unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("nov.csv", 4));
    assert_eq!(e.column, "lineItem/UnblendedCost");
    assert_eq!(e.message, "expected a decimal such as 12.50, found `abc`");
    let chinese = gpumeter_core::i18n::scoped(gpumeter_core::i18n::Lang::ZhCn, || {
        read_bill("nov.csv", text.as_bytes()).unwrap_err()
    });
    assert_eq!(chinese.message, "应为小数，例如 12.50，实际为 `abc`");
    assert_eq!(
        (chinese.line, chinese.column.as_str()),
        (4, "lineItem/UnblendedCost")
    );
    assert!(
        e.to_string()
            .starts_with("nov.csv:4:lineItem/UnblendedCost: ")
    );
    for bad in ["$12.50", "12,50", "1_000", "", "--1", "12.5 USD"] {
        let text = with_field(3, "lineItem/UnblendedCost", bad);
        let e = read_bill("nov.csv", text.as_bytes()).unwrap_err();
        assert_eq!(
            (e.line, e.column.as_str()),
            (3, "lineItem/UnblendedCost"),
            "{bad}"
        );
    }
}

#[test]
fn a_bad_date_or_currency_names_its_column() {
    let text = with_field(5, "lineItem/UsageStartDate", "24/11/2026 10h");
    let e = read_bill("nov.csv", text.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (5, "lineItem/UsageStartDate"));
    assert!(
        e.message.ends_with("found `24/11/2026 10h`"),
        "{}",
        e.message
    );
    let text = with_field(2, "lineItem/CurrencyCode", "usd");
    let e = read_bill("nov.csv", text.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (2, "lineItem/CurrencyCode"));
    assert!(e.message.contains("found `usd`"), "{}", e.message);
    let text = with_field(2, "lineItem/UsageEndDate", "2026-11-24T09:00:00Z");
    let e = read_bill("nov.csv", text.as_bytes()).unwrap_err();
    assert_eq!(e.column, "lineItem/UsageEndDate");
}

#[test]
fn an_unknown_header_names_what_it_saw_and_the_four_formats() {
    let e = read_bill("x.csv", b"date,amount\n2026-11-01,3\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("`date`, `amount`"), "{}", e.message);
    for format in ["FOCUS", "AWS Cost and Usage Report", "Alibaba", "Tencent"] {
        assert!(e.message.contains(format), "{}", e.message);
    }
}

#[test]
fn nasty_inputs_are_errors_or_empty_never_panics() {
    let e = read_bill("empty.csv", b"").unwrap_err();
    assert_eq!(e.line, 1);
    let header = CUR.lines().next().unwrap();
    assert_eq!(read_bill("h.csv", header.as_bytes()).unwrap(), vec![]);
    let bom = format!("\u{feff}{header}\n");
    assert_eq!(read_bill("h.csv", bom.as_bytes()).unwrap(), vec![]);
    // A row longer than the header.
    let mut long: Vec<&str> = CUR.lines().take(2).collect();
    let extra = format!("{},surplus", long[1]);
    long[1] = &extra;
    let e = read_bill("long.csv", long.join("\n").as_bytes()).unwrap_err();
    assert_eq!(e.line, 2);
    // A row cut short misses its cost.
    let short = format!("{header}\nx,y\n");
    let e = read_bill("short.csv", short.as_bytes()).unwrap_err();
    assert_eq!(e.line, 2);
    // A quote left open, and bytes that are not UTF-8.
    let open = format!("{header}\n\"never closed,1\n");
    assert!(read_bill("q.csv", open.as_bytes()).is_err());
    let mut latin = format!("{header}\n").into_bytes();
    latin.extend_from_slice(b"\xff\xfe,1\n");
    let e = read_bill("l.csv", &latin).unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn quoted_fields_with_commas_and_line_breaks_keep_the_line_numbers() {
    let text = with_field(
        2,
        "lineItem/LineItemDescription",
        "a, \"quoted\"\nsecond line",
    );
    let lines = read_bill("q.csv", text.as_bytes()).unwrap();
    assert_eq!(lines[0].source.line, 2);
    assert_eq!(lines[1].source.line, 4);
    assert!(lines.iter().all(|l| l.format == BillFormat::AwsCur));
}

proptest! {
    #[test]
    fn any_bytes_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_bill("p.csv", &bytes);
    }

    #[test]
    fn any_text_after_a_known_header_reads_without_panic(
        body in "[a-zA-Z0-9,.:\"/ \\n\\-]{0,300}",
        which in 0usize..4,
    ) {
        let headers = [
            CUR.lines().next().unwrap().to_string(),
            "BilledCost,ChargePeriodStart,ChargePeriodEnd,BillingCurrency,ResourceId".to_string(),
            "账期,账单日期,实例ID,地域,计费项,应付金额".to_string(),
            "资源ID,开始使用时间,结束使用时间,组件类型,优惠后总价".to_string(),
        ];
        let text = format!("{}\n{body}", headers[which]);
        let _ = read_bill("p.csv", text.as_bytes());
    }
}

#[test]
fn a_row_with_more_fields_than_the_header_names_the_first_filled_one_past_it() {
    let width = CUR.lines().next().unwrap().split(',').count();
    let mut lines: Vec<String> = CUR.lines().map(String::from).collect();
    lines[2].push_str(",,  ,x,y");
    let e = read_bill("nov.csv", lines.join("\n").as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column), (3, (width + 3).to_string()));
    assert_eq!(
        e.message,
        format!(
            "expected at most {width} fields, as many as the header has, found {}",
            width + 4
        )
    );
    // Empty fields past the header's are no error.
    let cut = lines[2].len() - ",x,y".len();
    lines[2].truncate(cut);
    assert!(read_bill("nov.csv", lines.join("\n").as_bytes()).is_ok());
}
