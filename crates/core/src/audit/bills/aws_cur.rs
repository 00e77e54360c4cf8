//! The legacy AWS Cost and Usage Report (CSV with `lineItem/...`, `product/...` columns).
//! Columns: <https://docs.aws.amazon.com/cur/latest/userguide/Lineitem-columns.html>; times
//! are UTC, start inclusive and end exclusive
//! (<https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/billing-reports-costusage-details.html>).

use super::aws_usage::{classify, reduce_arn};
use super::table::{Row, Table};
use super::{BillError, finish_period};
use crate::audit::{BillFormat, BillLine, ChargeKind, LineSource};
use crate::money::Money;

pub(super) const START: &[&str] = &["lineItem/UsageStartDate"];
pub(super) const BILLED: &[&str] = &["lineItem/UnblendedCost"];
const END: &[&str] = &["lineItem/UsageEndDate"];
const CURRENCY: &[&str] = &["lineItem/CurrencyCode"];
const RESOURCE: &[&str] = &["lineItem/ResourceId"];
const PRODUCT: &[&str] = &["lineItem/ProductCode", "product/ProductName"];
const USAGE_TYPE: &[&str] = &["lineItem/UsageType"];
const DESCRIPTION: &[&str] = &["lineItem/LineItemDescription"];
const LINE_TYPE: &[&str] = &["lineItem/LineItemType"];
const REGION: &[&str] = &["product/region", "product/regionCode"];
const QUANTITY: &[&str] = &["lineItem/UsageAmount"];
const UNIT: &[&str] = &["pricing/unit"];
const LIST: &[&str] = &["pricing/publicOnDemandCost"];

/// Whether a header is a CUR one.
pub(super) fn is_cur(table: &Table) -> bool {
    table.has(START) && table.has(BILLED)
}

/// Checks the header has what every line needs.
pub(super) fn check(table: &Table, line: u64) -> Result<(), BillError> {
    for names in [START, END, BILLED, CURRENCY] {
        table.require(line, names)?;
    }
    Ok(())
}

/// Line item types that charge for a resource's usage; the rest (Tax, Credit, Refund, Fee,
/// RIFee, Discount, BundledDiscount, the Savings Plans' fees and negations) are `Other`.
const USAGE_TYPES: &[&str] = &["Usage", "DiscountedUsage", "SavingsPlanCoveredUsage"];

/// One CUR row as a bill line.
pub(super) fn read(row: &Row) -> Result<BillLine, BillError> {
    let currency = row
        .currency(CURRENCY)?
        .ok_or_else(|| row.missing(CURRENCY, &crate::t!("bill-want-currency")))?;
    let billed = row.required_decimal(BILLED)?;
    let (start, end) = finish_period(row, START, END, 0)?;
    let usage_type = row.text(USAGE_TYPE);
    let aws = usage_type.as_deref().and_then(classify);
    let line_type = row.text(LINE_TYPE).unwrap_or_default();
    let usage_like = line_type.is_empty() || USAGE_TYPES.contains(&line_type.as_str());
    let kind = match aws {
        Some(u) if usage_like => u.kind,
        _ => ChargeKind::Other,
    };
    let region = row
        .text(REGION)
        .or_else(|| aws.and_then(|u| u.region).map(str::to_string));
    Ok(BillLine {
        source: LineSource {
            file: row.table.line_file(),
            line: row.line,
        },
        format: BillFormat::AwsCur,
        resource_id: row.text(RESOURCE).map(|id| reduce_arn(&id).to_string()),
        service: row.text(PRODUCT).unwrap_or_default(),
        usage: usage_type
            .or_else(|| row.text(DESCRIPTION))
            .unwrap_or_default(),
        kind,
        region,
        to_region: aws.and_then(|u| u.to_region).map(str::to_string),
        start,
        end,
        quantity: row.decimal(QUANTITY)?,
        unit: row.text(UNIT),
        billed: Money::new(billed, currency),
        list: row.money(LIST, currency)?,
    })
}
