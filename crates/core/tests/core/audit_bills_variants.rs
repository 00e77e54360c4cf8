//! The variants each format comes in: the English-language consoles' column names, a FOCUS
//! file from another cloud (no AWS usage type), the pre-1.0 FOCUS spellings, notes and
//! repeated headers in the file.

use gpumeter_core::audit::{BillFormat, ChargeKind, TransferScope, read_bill};
use rust_decimal::Decimal;

#[test]
fn alibaba_english_monthly_export() {
    let text = "BillingCycle,ProductName,ProductDetail,InstanceID,Region,BillingItem,Usage,UsageUnit,PretaxGrossAmount,PretaxAmount,Currency,Item\n\
        2026-11,Elastic Compute Service,ECS Pay-As-You-Go,i-t4ndemo00001,Singapore,Instance Type,720,Hour,1500.00,1350.25,USD,PayAsYouGoBill\n\
        2026-11,Elastic Compute Service,ECS Pay-As-You-Go,i-t4ndemo00001,Singapore,Internet Traffic,10,GB,1.17,1.17,USD,PayAsYouGoBill\n\
        2026-11,Elastic Compute Service,ECS Pay-As-You-Go,i-t4ndemo00001,Singapore,Instance Type,-1,Hour,-1.88,-1.88,USD,Refund\n";
    let lines = read_bill("ali.csv", text.as_bytes()).unwrap();
    assert_eq!(lines.len(), 3);
    assert!(lines.iter().all(|l| l.format == BillFormat::Alibaba));
    let kinds: Vec<_> = lines.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            ChargeKind::Compute,
            ChargeKind::Transfer {
                scope: TransferScope::Internet
            },
            ChargeKind::Other
        ]
    );
    let l = &lines[0];
    assert_eq!(l.region.as_deref(), Some("ap-southeast-1"));
    assert_eq!(l.billed.currency.as_str(), "USD");
    assert_eq!(l.billed.amount, "1350.25".parse::<Decimal>().unwrap());
    // The billing month, in China Standard Time.
    assert_eq!(l.start, "2026-10-31T16:00:00Z".parse().unwrap());
    assert_eq!(l.end, "2026-11-30T16:00:00Z".parse().unwrap());
}

#[test]
fn tencent_english_export_bills_in_dollars() {
    let text = "Product Name,Region,Instance ID,Transaction Type,Usage Start Time,Usage End Time,Component Type,Component Name,Component Usage,Usage Unit,Original Cost,Total Amount After Discount\n\
        Cloud Virtual Machine,South China(Guangzhou),ins-demo0gpu01,Pay-as-you-go hourly,2026-11-24 10:00:00,2026-11-24 10:59:59,CPU,GPU CPU,1,Core,3.10,2.79\n\
        Cloud Virtual Machine,South China(Guangzhou),ins-demo0gpu01,Refund,2026-11-24 10:00:00,2026-11-24 10:59:59,CPU,GPU CPU,1,Core,-3.10,-2.79\n";
    let lines = read_bill("tc.csv", text.as_bytes()).unwrap();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.format == BillFormat::Tencent));
    assert_eq!(lines[0].kind, ChargeKind::Compute);
    assert_eq!(lines[1].kind, ChargeKind::Other);
    assert_eq!(lines[0].region.as_deref(), Some("ap-guangzhou"));
    assert_eq!(lines[0].billed.currency.as_str(), "USD");
    assert_eq!(
        lines[0].list.unwrap().amount,
        "3.10".parse::<Decimal>().unwrap()
    );
}

#[test]
fn focus_from_another_cloud_reads_kinds_from_its_columns() {
    let text = "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ResourceID,ResourceType,ServiceCategory,ServiceName,Region,ChargeDescription\n\
        12.5E0,EUR,2026-11-24T00:00:00Z,2026-11-25T00:00:00Z,Usage,/subscriptions/1/vm-gpu,Virtual machine,Compute,Virtual Machines,westeurope,NC24ads A100 v4\n\
        0.40,EUR,2026-11-24T00:00:00Z,2026-11-25T00:00:00Z,Usage,/subscriptions/1/disk-1,Disk,Storage,Storage,westeurope,P30 LRS Disk\n\
        1.2,EUR,2026-11-24T00:00:00Z,2026-11-25T00:00:00Z,Usage,,,Networking,Bandwidth,westeurope,Inter-Region data transfer out\n\
        2.00,EUR,2026-11-01T00:00:00Z,2026-12-01T00:00:00Z,Tax,,,Other,Tax,,VAT\n";
    let lines = read_bill("azure.csv", text.as_bytes()).unwrap();
    let kinds: Vec<_> = lines.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            ChargeKind::Compute,
            ChargeKind::Disk,
            ChargeKind::Transfer {
                scope: TransferScope::InterRegion
            },
            ChargeKind::Other
        ]
    );
    assert_eq!(lines[0].billed.amount, Decimal::new(125, 1));
    assert_eq!(lines[0].region.as_deref(), Some("westeurope"));
    assert_eq!(
        lines[0].resource_id.as_deref(),
        Some("/subscriptions/1/vm-gpu")
    );
    assert_eq!(lines[0].usage, "NC24ads A100 v4");
}

#[test]
fn notes_blank_rows_and_repeated_headers_are_skipped_with_line_numbers_kept() {
    let header = "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd";
    let text = format!(
        "# exported 2026-12-01\n{header}\n1.00,USD,2026-11-24T00:00:00Z,2026-11-25T00:00:00Z\n\n\
         {header}\n2.00,USD,2026-11-25T00:00:00Z,2026-11-26T00:00:00Z\n"
    );
    let lines = read_bill("notes.csv", text.as_bytes()).unwrap();
    let at: Vec<u64> = lines.iter().map(|l| l.source.line).collect();
    assert_eq!(at, [3, 6]);
    // A total row is only skipped in the Chinese exports: in FOCUS it is an error to read.
    let total = format!("{header}\nTotal,USD,,\n");
    let e = read_bill("t.csv", total.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (2, "BilledCost"));
}

#[test]
fn a_known_format_missing_a_column_it_needs_says_which() {
    let text = "lineItem/UsageStartDate,lineItem/UnblendedCost\n";
    let e = read_bill("cur.csv", text.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column.as_str()), (1, "lineItem/UsageEndDate"));
    assert!(
        e.message.contains("`lineItem/UsageEndDate`"),
        "{}",
        e.message
    );
}

/// Each time column keeps its last value read: rows that repeat a start, an end or both,
/// alternate them, or give one column the other's last value are each read for their own.
#[test]
fn times_repeated_alternated_and_swapped_between_columns_are_each_read_for_themselves() {
    let rows = [
        ("2026-11-03T10:00:00Z", "2026-11-03T11:00:00Z"),
        ("2026-11-03T10:00:00Z", "2026-11-03T11:00:00Z"),
        ("2026-11-03T11:00:00Z", "2026-11-03T12:00:00Z"),
        ("2026-11-03T10:00:00Z", "2026-11-03T12:00:00Z"),
        ("2026-11-03T12:00:00Z", "2026-11-03T12:00:00Z"),
        ("2026-11-03T10:00:00.5+08:00", "2026-11-03T11:00:00Z"),
    ];
    let mut text = String::from(
        "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ResourceId,ServiceName\n",
    );
    for (start, end) in rows {
        text.push_str(&["1.00,USD", start, end, "i-0abc,AmazonEC2\n"].join(","));
    }
    let lines = read_bill("focus.csv", text.as_bytes()).unwrap();
    assert_eq!(lines.len(), rows.len());
    for (line, (start, end)) in lines.iter().zip(rows) {
        let start: jiff::Timestamp = start.parse().unwrap();
        let end: jiff::Timestamp = end.parse().unwrap();
        assert_eq!(
            (line.start, line.end),
            (start, end),
            "line {}",
            line.source.line
        );
    }
}
