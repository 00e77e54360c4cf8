//! Alibaba Cloud's bill-details export (账单明细), as the console writes it in Chinese or
//! with the English field names: <https://alibabacloud.com/help/tc/user-center/user-guide/bill-details-2>,
//! <https://www.alibabacloud.com/help/en/boa/latest/detailed-file-format>.

use super::regions::{Regions, destination, region_code};
use super::table::{Row, Table};
use super::words::kind_from_texts;
use super::{BillError, CHINA_OFFSET_HOURS, export_currency, finish_period};
use crate::audit::{BillFormat, BillLine, ChargeKind, LineSource};
use crate::money::Money;

pub(super) const BILLED: &[&str] = &["应付金额", "PretaxAmount"];
/// The day of a daily export, or the billing month (`2026-11`) of a monthly one.
pub(super) const DAY: &[&str] = &["账单日期", "BillingDate"];
pub(super) const MONTH: &[&str] = &["账期", "BillingCycle"];
/// Start and end of use, where the export has them; a single consumption time otherwise.
const START: &[&str] = &["服务开始时间", "开始时间", "UsageStartTime"];
const END: &[&str] = &["服务结束时间", "结束时间", "UsageEndTime"];
const CONSUMED: &[&str] = &["消费时间", "ConsumeTime"];
const LIST: &[&str] = &["官网价", "PretaxGrossAmount"];
const CURRENCY: &[&str] = &["币种", "Currency"];
const RESOURCE: &[&str] = &["实例ID", "资源ID", "InstanceID", "InstanceId"];
const PRODUCT: &[&str] = &["产品", "ProductName", "产品Code", "ProductCode"];
const DETAIL: &[&str] = &["产品明细", "ProductDetail"];
const ITEM: &[&str] = &["计费项", "BillingItem"];
const BILL_TYPE: &[&str] = &["账单类型", "Item"];
const REGION: &[&str] = &["地域", "Region"];
const QUANTITY: &[&str] = &["用量", "Usage"];
const UNIT: &[&str] = &["用量单位", "UsageUnit"];

/// Whether a header is an Alibaba bill-details one.
pub(super) fn is_alibaba(table: &Table) -> bool {
    table.has(BILLED) && (table.has(DAY) || table.has(MONTH))
}

/// Checks the header has what every line needs.
pub(super) fn check(table: &Table, line: u64) -> Result<(), BillError> {
    table.require(line, BILLED)
}

/// Bill types that are no usage: refunds (退款) and adjustments (调账).
const NOT_USAGE: &[&str] = &["Refund", "Adjustment", "退款", "调账"];

/// One Alibaba row as a bill line.
pub(super) fn read(row: &Row) -> Result<BillLine, BillError> {
    let currency = export_currency(row, CURRENCY)?;
    let billed = row.required_decimal(BILLED)?;
    // Alibaba's console writes times in China Standard Time with no zone: UTC+8.
    let (start, end) = if row.raw(START).is_some() {
        finish_period(row, START, END, CHINA_OFFSET_HOURS)?
    } else if row.raw(CONSUMED).is_some() {
        finish_period(row, CONSUMED, &[], CHINA_OFFSET_HOURS)?
    } else if row.raw(DAY).is_some() {
        finish_period(row, DAY, &[], CHINA_OFFSET_HOURS)?
    } else {
        finish_period(row, MONTH, &[], CHINA_OFFSET_HOURS)?
    };
    let item = row.text(ITEM);
    let detail = row.text(DETAIL);
    let product = row.text(PRODUCT).unwrap_or_default();
    let bill_type = row.text(BILL_TYPE).unwrap_or_default();
    let kind = if NOT_USAGE.contains(&bill_type.as_str()) || product.contains('税') {
        ChargeKind::Other
    } else {
        kind_from_texts(&[item.as_deref(), detail.as_deref(), Some(&product)])
    };
    let usage = [detail, item].into_iter().flatten().collect::<Vec<_>>();
    let usage = usage.join(" / ");
    let region = row.text(REGION).map(|r| region_code(&r, Regions::Alibaba));
    let to_region = destination(kind, region.as_deref(), &usage, Regions::Alibaba);
    Ok(BillLine {
        source: LineSource {
            file: row.table.line_file(),
            line: row.line,
        },
        format: BillFormat::Alibaba,
        resource_id: row.text(RESOURCE),
        service: product,
        usage,
        kind,
        region,
        to_region,
        start,
        end,
        quantity: row.decimal(QUANTITY)?,
        unit: row.text(UNIT),
        billed: Money::new(billed, currency),
        list: row.money(LIST, currency)?,
    })
}
