//! One line of a provider's bill, whatever format it came in: what was charged, for which
//! resource, when, in which region, and what kind of charge it is.

use std::sync::Arc;

use jiff::Timestamp;
use rust_decimal::Decimal;
use serde::Serialize;

use crate::money::Money;

/// The formats `audit` reads, told apart by their header row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BillFormat {
    /// FOCUS 1.x CSV (AWS Data Exports, Azure, Google Cloud, Oracle, Alibaba's FOCUS export).
    Focus,
    /// The legacy AWS Cost and Usage Report CSV (`lineItem/...` columns).
    AwsCur,
    /// Alibaba Cloud's console bill-details export (账单明细).
    Alibaba,
    /// Tencent Cloud's console bill-details export (账单明细).
    Tencent,
}

/// Where a line came from, for the evidence and for errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineSource {
    /// The file's name as the user gave it, shared by the file's lines.
    pub file: Arc<str>,
    /// 1-based line number in the file (the header is line 1).
    pub line: u64,
}

/// What a line charges for, as far as its columns say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ChargeKind {
    /// Instance hours (compute, GPU).
    Compute,
    /// Block storage: a disk or volume.
    Disk,
    Snapshot,
    Image,
    /// An address held (elastic IP, public IPv4).
    PublicIp,
    LoadBalancer,
    /// Data moved: to the internet, to another region, to another zone.
    Transfer {
        scope: TransferScope,
    },
    /// Tax, support, anything else.
    Other,
}

/// Where transferred data went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransferScope {
    Internet,
    InterRegion,
    InterZone,
    /// The bill does not say.
    Unknown,
}

/// One bill line, normalised.
#[derive(Debug, Clone, PartialEq)]
pub struct BillLine {
    pub source: LineSource,
    pub format: BillFormat,
    /// The provider's resource id (`i-0abc`, `vol-0abc`, an ARN reduced to its id), when the
    /// line names one.
    pub resource_id: Option<String>,
    /// The service as the bill names it (`AmazonEC2`, `云服务器 ECS`).
    pub service: String,
    /// The provider's own usage/charge description (`USE1-BoxUsage:p4d.24xlarge`).
    pub usage: String,
    pub kind: ChargeKind,
    /// Region code where the line gives one (`us-east-1`, `cn-hangzhou`, `ap-beijing`); for a
    /// transfer between regions, the source.
    pub region: Option<String>,
    /// For a transfer between regions, the destination, where the line says.
    pub to_region: Option<String>,
    /// The charge period, start inclusive, end exclusive.
    pub start: Timestamp,
    pub end: Timestamp,
    pub quantity: Option<Decimal>,
    pub unit: Option<String>,
    /// What the provider bills for this line (FOCUS `BilledCost`, CUR
    /// `lineItem/UnblendedCost`, the Chinese exports' amount after discounts).
    pub billed: Money,
    /// The list (undiscounted) cost, where the bill has one.
    pub list: Option<Money>,
}
