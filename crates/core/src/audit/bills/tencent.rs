//! Tencent Cloud's bill-details export (账单明细, by resource and component), in Chinese or
//! with the international console's English names:
//! <https://intl.cloud.tencent.com/document/product/555/37506>.

use super::regions::{Regions, destination, region_code};
use super::table::{Row, Table};
use super::words::kind_from_texts;
use super::{BillError, CHINA_OFFSET_HOURS, export_currency, finish_period};
use crate::audit::{BillFormat, BillLine, ChargeKind, LineSource};
use crate::money::Money;

pub(super) const BILLED: &[&str] = &[
    "优惠后总价",
    "折后总价",
    "Total Amount After Discount",
    "Total Amount After Discount (Excluding Tax)",
];
pub(super) const RESOURCE: &[&str] = &["资源ID", "Instance ID", "Resource ID"];
const START: &[&str] = &["开始使用时间", "Usage Start Time"];
const END: &[&str] = &["结束使用时间", "Usage End Time"];
const DEDUCTED: &[&str] = &["扣费时间", "Transaction Time"];
const LIST: &[&str] = &["原价", "Original Cost"];
const CURRENCY: &[&str] = &["币种", "Currency"];
const PRODUCT: &[&str] = &["产品名称", "Product Name"];
const SUBPRODUCT: &[&str] = &["子产品名称", "Subproduct Name"];
const COMPONENT_TYPE: &[&str] = &["组件类型", "Component Type"];
const COMPONENT: &[&str] = &["组件名称", "Component Name"];
const TRANSACTION: &[&str] = &["交易类型", "Transaction Type"];
const REGION: &[&str] = &["地域", "Region"];
const QUANTITY: &[&str] = &["用量", "Component Usage"];
const UNIT: &[&str] = &["用量单位", "Usage Unit"];

/// Whether a header is a Tencent bill-details one.
pub(super) fn is_tencent(table: &Table) -> bool {
    table.has(BILLED) && table.has(RESOURCE)
}

/// Checks the header has what every line needs.
pub(super) fn check(table: &Table, line: u64) -> Result<(), BillError> {
    table.require(line, BILLED)?;
    if table.has(START) {
        Ok(())
    } else {
        table.require(line, DEDUCTED)
    }
}

/// Transaction types that are no usage: refunds (退费), adjustments (调账), vouchers.
const NOT_USAGE: &[&str] = &["退费", "退款", "调账", "Refund", "Adjustment"];

/// One Tencent row as a bill line.
pub(super) fn read(row: &Row) -> Result<BillLine, BillError> {
    let currency = export_currency(row, CURRENCY)?;
    let billed = row.required_decimal(BILLED)?;
    // Tencent's console writes China Standard Time with no zone: UTC+8. Its usage end is the
    // last second of use (`10:59:59`), so a second is added to make the end exclusive.
    let (start, end) = if row.raw(START).is_some() {
        let (start, end) = finish_period(row, START, END, CHINA_OFFSET_HOURS)?;
        let inclusive = row.raw(END).is_some_and(|(_, v)| v.ends_with(":59"));
        let end = if inclusive {
            end.checked_add(jiff::SignedDuration::from_secs(1))
                .unwrap_or(end)
        } else {
            end
        };
        (start, end)
    } else {
        finish_period(row, DEDUCTED, &[], CHINA_OFFSET_HOURS)?
    };
    let transaction = row.text(TRANSACTION).unwrap_or_default();
    let component_type = row.text(COMPONENT_TYPE);
    let component = row.text(COMPONENT);
    let subproduct = row.text(SUBPRODUCT);
    let product = row.text(PRODUCT).unwrap_or_default();
    let kind = if NOT_USAGE.iter().any(|t| transaction.contains(t)) || product.contains('税') {
        ChargeKind::Other
    } else {
        kind_from_texts(&[
            component_type.as_deref(),
            component.as_deref(),
            subproduct.as_deref(),
            Some(&product),
        ])
    };
    let usage = [component_type, component]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    let usage = usage.join(" / ");
    let region = row.text(REGION).map(|r| region_code(&r, Regions::Tencent));
    let to_region = destination(kind, region.as_deref(), &usage, Regions::Tencent);
    Ok(BillLine {
        source: LineSource {
            file: row.table.line_file(),
            line: row.line,
        },
        format: BillFormat::Tencent,
        resource_id: row.text(RESOURCE).filter(|id| id != "-"),
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
