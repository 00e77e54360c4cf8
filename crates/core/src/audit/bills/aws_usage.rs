//! AWS usage types (`USE1-BoxUsage:p4d.24xlarge`) read for what they charge and where, and
//! ARNs reduced to the resource's id.
//!
//! Sources: the EC2, EBS and VPC billing codes
//! (<https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-billing-usage-reports.html>,
//! <https://docs.aws.amazon.com/ebs/latest/userguide/ebs-billing-usage-reports.html>,
//! <https://docs.aws.amazon.com/vpc/latest/userguide/vpc-billing-usage-reports.html>), data
//! transfer (<https://docs.aws.amazon.com/cur/latest/userguide/cur-data-transfers-charges.html>)
//! and the region billing codes
//! (<https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-region-billing-codes.html>).

use crate::audit::{ChargeKind, TransferScope};

/// Billing-code prefix → region. `us-east-1` often has no prefix at all; `EU` is Ireland and
/// `APS3` is Mumbai, not what the pattern suggests.
const PREFIXES: &[(&str, &str)] = &[
    ("USE1", "us-east-1"),
    ("USE2", "us-east-2"),
    ("USW1", "us-west-1"),
    ("USW2", "us-west-2"),
    ("CAN1", "ca-central-1"),
    ("CAN2", "ca-west-1"),
    ("MXC1", "mx-central-1"),
    ("AFS1", "af-south-1"),
    ("APE1", "ap-east-1"),
    ("APE2", "ap-east-2"),
    ("APN1", "ap-northeast-1"),
    ("APN2", "ap-northeast-2"),
    ("APN3", "ap-northeast-3"),
    ("APS1", "ap-southeast-1"),
    ("APS2", "ap-southeast-2"),
    ("APS3", "ap-south-1"),
    ("APS4", "ap-southeast-3"),
    ("APS5", "ap-south-2"),
    ("APS6", "ap-southeast-4"),
    ("APS7", "ap-southeast-5"),
    ("APS8", "ap-southeast-6"),
    ("APS9", "ap-southeast-7"),
    ("EU", "eu-west-1"),
    ("EUC1", "eu-central-1"),
    ("EUW2", "eu-west-2"),
    ("EUW3", "eu-west-3"),
    ("EUN1", "eu-north-1"),
    ("EUS1", "eu-south-1"),
    ("SAE1", "sa-east-1"),
    ("MES1", "me-south-1"),
    ("UGW1", "us-gov-west-1"),
    ("CNN1", "cn-north-1"),
    ("CNW1", "cn-northwest-1"),
];

/// The region a billing-code prefix stands for.
pub(super) fn prefix_region(prefix: &str) -> Option<&'static str> {
    PREFIXES.iter().find(|(p, _)| *p == prefix).map(|(_, r)| *r)
}

/// What a usage type says: the kind of charge, the region (the source, for a transfer
/// between regions) and the destination region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Usage {
    pub kind: ChargeKind,
    pub region: Option<&'static str>,
    pub to_region: Option<&'static str>,
}

/// Splits a leading region prefix off `text` (`USE1-BoxUsage:x` → `us-east-1`, `BoxUsage:x`).
fn split_prefix(text: &str) -> (Option<&'static str>, &str) {
    match text.split_once('-') {
        Some((head, rest)) => match prefix_region(head) {
            Some(region) => (Some(region), rest),
            None => (None, text),
        },
        None => (None, text),
    }
}

/// Reads a usage type; `None` when it is none AWS documents here.
pub(super) fn classify(usage_type: &str) -> Option<Usage> {
    let (first, meter) = split_prefix(usage_type.trim());
    let (second, rest) = split_prefix(meter);
    let transfer = |scope| ChargeKind::Transfer { scope };
    // `<SRC>-<DST>-AWS-Out-Bytes` is charged at the source; `<DST>-<SRC>-AWS-In-Bytes` is the
    // same flow seen from the destination. `<SRC>-AWS-Out-Bytes` alone is VPC peering.
    if rest.starts_with("AWS-Out-Bytes") || rest.starts_with("AWS-In-Bytes") {
        let inbound = rest.starts_with("AWS-In");
        let (from, to) = match (first, second, inbound) {
            (Some(a), Some(b), false) => (Some(a), Some(b)),
            (Some(a), Some(b), true) => (Some(b), Some(a)),
            (a, _, _) => (a.or(Some("us-east-1")), None),
        };
        return Some(Usage {
            kind: transfer(TransferScope::InterRegion),
            region: from,
            to_region: to,
        });
    }
    let kind = meter_kind(meter)?;
    Some(Usage {
        kind,
        // A usage type with no prefix is us-east-1's.
        region: first.or(Some("us-east-1")),
        to_region: None,
    })
}

/// The kind a meter (a usage type with its region prefix removed) charges for.
fn meter_kind(meter: &str) -> Option<ChargeKind> {
    let transfer = |scope| Some(ChargeKind::Transfer { scope });
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| meter.starts_with(p));
    if starts(&[
        "BoxUsage",
        "SpotUsage:",
        "HostUsage:",
        "HostBoxUsage:",
        "DedicatedUsage:",
        "Reservation:",
    ]) {
        Some(ChargeKind::Compute)
    } else if starts(&["EBS:Snapshot"]) {
        Some(ChargeKind::Snapshot)
    } else if starts(&["EBS:Volume"]) {
        Some(ChargeKind::Disk)
    } else if starts(&["PublicIPv4:", "ElasticIP:"]) {
        Some(ChargeKind::PublicIp)
    } else if meter.contains("LoadBalancerUsage") || meter.contains("LCUUsage") {
        Some(ChargeKind::LoadBalancer)
    } else if starts(&["DataTransfer-Out-Bytes", "DataTransfer-In-Bytes"]) {
        transfer(TransferScope::Internet)
    } else if starts(&["DataTransfer-Regional-Bytes"]) {
        transfer(TransferScope::InterZone)
    } else {
        None
    }
}

/// The resource's own id from an ARN (`arn:aws:ec2:us-east-1:1:volume/vol-1` → `vol-1`,
/// `arn:aws:s3:::bucket` → `bucket`); anything else as it is.
pub(super) fn reduce_arn(id: &str) -> &str {
    if !id.starts_with("arn:") {
        return id;
    }
    // arn:partition:service:region:account:resource
    let resource = id.splitn(6, ':').nth(5).unwrap_or(id);
    let last = resource.rsplit(['/', ':']).next().unwrap_or(resource);
    if last.is_empty() { resource } else { last }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_usage_types() {
        let u = classify("USE1-USW2-AWS-Out-Bytes").unwrap();
        assert_eq!(u.region, Some("us-east-1"));
        assert_eq!(u.to_region, Some("us-west-2"));
        let u = classify("APS3-USE2-AWS-In-Bytes").unwrap();
        assert_eq!(
            (u.region, u.to_region),
            (Some("us-east-2"), Some("ap-south-1"))
        );
        assert_eq!(
            classify("BoxUsage:p4d.24xlarge").unwrap().region,
            Some("us-east-1")
        );
        assert_eq!(
            classify("EU-EBS:SnapshotUsage").unwrap().kind,
            ChargeKind::Snapshot
        );
        assert_eq!(
            classify("EU-EBS:SnapshotUsage").unwrap().region,
            Some("eu-west-1")
        );
        assert_eq!(classify("USE1-Unknown-Thing"), None);
    }

    #[test]
    fn reduces_arns() {
        assert_eq!(
            reduce_arn("arn:aws:ec2:us-east-1:123:volume/vol-1"),
            "vol-1"
        );
        assert_eq!(reduce_arn("arn:aws:s3:::bucket"), "bucket");
        assert_eq!(
            reduce_arn("arn:aws:ec2:us-east-1::snapshot/snap-0a"),
            "snap-0a"
        );
        assert_eq!(reduce_arn("i-0abc"), "i-0abc");
        assert_eq!(reduce_arn("arn:"), "arn:");
        assert_eq!(reduce_arn("arn:aws:x:y:z:thing/"), "thing/");
    }
}
