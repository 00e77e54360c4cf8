//! FOCUS 1.x CSV: AWS Data Exports ("FOCUS 1.0 with AWS columns"), Azure, Google Cloud,
//! Oracle, Alibaba's FOCUS preview. Columns and rules from the specification,
//! <https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec/tree/v1.0/specification>;
//! the pre-1.0 spellings (`ResourceID`, `Region`, `UsageQuantity`) are read too.

use std::borrow::Cow;

use super::aws_usage::{classify, reduce_arn};
use super::table::{Row, Table};
use super::words::kind_from_texts;
use super::{BillError, finish_period};
use crate::audit::{BillFormat, BillLine, ChargeKind, LineSource};

pub(super) const BILLED: &[&str] = &["BilledCost"];
pub(super) const START: &[&str] = &["ChargePeriodStart"];
pub(super) const CURRENCY: &[&str] = &["BillingCurrency"];
const END: &[&str] = &["ChargePeriodEnd"];
const LIST: &[&str] = &["ListCost"];
const RESOURCE: &[&str] = &["ResourceId", "ResourceID"];
const SERVICE: &[&str] = &["ServiceName"];
/// AWS's FOCUS tables carry the usage type as a custom `x_` column.
const USAGE_TYPE: &[&str] = &["x_UsageType"];
const DESCRIPTION: &[&str] = &["ChargeDescription"];
const CATEGORY: &[&str] = &["ChargeCategory"];
const REGION: &[&str] = &["RegionId", "Region"];
const QUANTITY: &[&str] = &["ConsumedQuantity", "UsageQuantity", "PricingQuantity"];
const UNIT: &[&str] = &["ConsumedUnit", "UsageUnit", "PricingUnit"];
const RESOURCE_TYPE: &[&str] = &["ResourceType"];
const SKU_METER: &[&str] = &["SkuMeter"];
const SERVICE_CATEGORY: &[&str] = &["ServiceCategory"];

/// Whether a header is a FOCUS one.
pub(super) fn is_focus(table: &Table) -> bool {
    table.has(BILLED) && table.has(START) && table.has(CURRENCY)
}

/// Checks the header has what every line needs.
pub(super) fn check(table: &Table, line: u64) -> Result<(), BillError> {
    for names in [BILLED, START, CURRENCY, END] {
        table.require(line, names)?;
    }
    Ok(())
}

/// One FOCUS row as a bill line.
pub(super) fn read(row: &Row) -> Result<BillLine, BillError> {
    let currency = row
        .currency(CURRENCY)?
        .ok_or_else(|| row.missing(CURRENCY, &crate::t!("bill-want-currency")))?;
    let billed = row.required_decimal(BILLED)?;
    let (start, end) = finish_period(row, START, END, 0)?;
    let usage_type = row.text(USAGE_TYPE);
    let description = row.text_ref(DESCRIPTION);
    let aws = usage_type.as_deref().and_then(classify);
    // Tax, Credit and Adjustment are not usage of any resource; Purchase is an up-front
    // commitment, not an hour of something.
    let category = row.text_ref(CATEGORY).unwrap_or_default();
    let usage_like = category.is_empty() || category == "Usage";
    let kind = if !usage_like {
        ChargeKind::Other
    } else if let Some(u) = aws {
        u.kind
    } else {
        let texts = [
            row.raw(RESOURCE_TYPE).map(|(_, v)| v),
            row.raw(SKU_METER).map(|(_, v)| v),
            description.as_deref(),
            row.raw(SERVICE_CATEGORY).map(|(_, v)| v),
        ];
        kind_from_texts(&texts)
    };
    let region = row
        .text(REGION)
        .or_else(|| aws.and_then(|u| u.region).map(str::to_string));
    Ok(BillLine {
        source: LineSource {
            file: row.table.line_file(),
            line: row.line,
        },
        format: BillFormat::Focus,
        resource_id: row.text(RESOURCE).map(|id| match reduce_arn(&id) {
            reduced if reduced.len() == id.len() => id,
            reduced => reduced.to_string(),
        }),
        service: row.text(SERVICE).unwrap_or_default(),
        usage: usage_type
            .or_else(|| description.map(Cow::into_owned))
            .unwrap_or_default(),
        kind,
        region,
        to_region: aws.and_then(|u| u.to_region).map(str::to_string),
        start,
        end,
        quantity: row.decimal(QUANTITY)?,
        unit: row.text(UNIT),
        billed: crate::money::Money::new(billed, currency),
        list: row.money(LIST, currency)?,
    })
}
