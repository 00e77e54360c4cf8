//! FOCUS 1.0 bill rows as AWS Data Exports writes them, for the audit's tests: every column
//! of the specification (https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec, tag
//! v1.0, `specification/columns/`), dates as `YYYY-MM-DDTHH:mm:ssZ`, NULL as an empty field,
//! and AWS's own `x_` columns (https://docs.aws.amazon.com/cur/latest/userguide/table-dictionary-focus-1-0-aws.html).
//! Usage types follow AWS's patterns: `USE1-BoxUsage:<type>` for instance hours,
//! `<SRC>-<DST>-AWS-Out-Bytes` for data sent to another region
//! (https://docs.aws.amazon.com/cur/latest/userguide/cur-data-transfers-charges.html).

use jiff::Timestamp;
use rust_decimal::Decimal;

/// Every FOCUS 1.0 column, then the AWS columns the rows fill.
const COLUMNS: &[&str] = &[
    "AvailabilityZone",
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "CommitmentDiscountCategory",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountStatus",
    "CommitmentDiscountType",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ContractedCost",
    "ContractedUnitPrice",
    "EffectiveCost",
    "InvoiceIssuerName",
    "ListCost",
    "ListUnitPrice",
    "PricingCategory",
    "PricingQuantity",
    "PricingUnit",
    "ProviderName",
    "PublisherName",
    "RegionId",
    "RegionName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "ServiceCategory",
    "ServiceName",
    "SkuId",
    "SkuPriceId",
    "SubAccountId",
    "SubAccountName",
    "Tags",
    "x_Operation",
    "x_ServiceCode",
    "x_UsageType",
];

/// One usage row.
#[derive(Debug, Clone)]
pub struct FocusRow {
    pub resource: String,
    pub start: Timestamp,
    pub end: Timestamp,
    pub billed: Decimal,
    pub usage_type: String,
    pub quantity: Decimal,
    pub unit: String,
    pub service: String,
    pub category: String,
}

impl FocusRow {
    pub fn usage(resource: &str, start: Timestamp, end: Timestamp, billed: Decimal) -> Self {
        FocusRow {
            resource: resource.into(),
            start,
            end,
            billed,
            usage_type: String::new(),
            quantity: Decimal::ONE,
            unit: "Hours".into(),
            service: "Amazon Elastic Compute Cloud".into(),
            category: "Compute".into(),
        }
    }

    pub fn usage_type(mut self, usage_type: &str, quantity: Decimal, unit: &str) -> Self {
        self.usage_type = usage_type.into();
        self.quantity = quantity;
        self.unit = unit.into();
        self
    }

    pub fn service(mut self, name: &str, category: &str) -> Self {
        self.service = name.into();
        self.category = category.into();
        self
    }

    fn value(&self, column: &str) -> String {
        let day = |t: Timestamp| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
        let month_start = self.start.strftime("%Y-%m-01T00:00:00Z").to_string();
        let cost = self.billed.to_string();
        match column {
            "BilledCost" | "EffectiveCost" | "ListCost" | "ContractedCost" => cost,
            "BillingAccountId" | "SubAccountId" => "123456789012".into(),
            "BillingCurrency" => "USD".into(),
            "BillingPeriodStart" => month_start,
            "BillingPeriodEnd" => day(self.end + jiff::SignedDuration::from_hours(24 * 32))
                .get(..8)
                .map(|ym| format!("{ym}01T00:00:00Z"))
                .unwrap_or_default(),
            "ChargeCategory" => "Usage".into(),
            "ChargeDescription" => format!("{} usage", self.usage_type),
            "ChargeFrequency" => "Usage-Based".into(),
            "ChargePeriodStart" => day(self.start),
            "ChargePeriodEnd" => day(self.end),
            "ConsumedQuantity" | "PricingQuantity" => self.quantity.to_string(),
            "ConsumedUnit" | "PricingUnit" => self.unit.clone(),
            "ContractedUnitPrice" | "ListUnitPrice" => {
                (self.billed / self.quantity).round_dp(6).to_string()
            }
            "InvoiceIssuerName" | "ProviderName" | "PublisherName" => "AWS".into(),
            "PricingCategory" => "Standard".into(),
            "RegionId" => "us-east-1".into(),
            "RegionName" => "US East (N. Virginia)".into(),
            "ResourceId" => self.resource.clone(),
            "ServiceCategory" => self.category.clone(),
            "ServiceName" => self.service.clone(),
            "SkuId" | "SkuPriceId" => "SKU123".into(),
            "Tags" => "{}".into(),
            "x_Operation" => "RunInstances".into(),
            "x_ServiceCode" => "AmazonEC2".into(),
            "x_UsageType" => self.usage_type.clone(),
            _ => String::new(),
        }
    }
}

/// The CSV file of `rows`, header first.
pub fn focus_csv(rows: &[FocusRow]) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for r in rows {
        let fields: Vec<String> = COLUMNS
            .iter()
            .map(|c| {
                let v = r.value(c);
                if v.contains([',', '"']) {
                    format!("\"{}\"", v.replace('"', "\"\""))
                } else {
                    v
                }
            })
            .collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}
