//! What a bill's free text says, where no code does: the kind of charge from a billing item,
//! component or product name, in English or Chinese.
//!
//! Alibaba bills data transfer as a billing item (计费项) of the ECS instance, EIP or shared
//! bandwidth that carried it (<https://help.aliyun.com/document_detail/209402.html>); Tencent
//! bills CVM as components (CPU, 内存, 系统盘, 带宽) of the instance
//! (<https://intl.cloud.tencent.com/document/product/555/37506>).

use crate::audit::{ChargeKind, TransferScope};

/// Keywords for each kind, tried in order: the first text that has one decides. Specific
/// before general: an EIP's traffic is a transfer, a snapshot of a disk is a snapshot.
const KINDS: &[(&[&str], ChargeKind)] = &[
    (&["snapshot", "快照"], ChargeKind::Snapshot),
    (&["image", "镜像"], ChargeKind::Image),
    (
        &[
            "inter-region",
            "cross-region",
            "跨地域",
            "跨区域",
            "云联网",
            "云企业网",
            "aws-out-bytes",
        ],
        ChargeKind::Transfer {
            scope: TransferScope::InterRegion,
        },
    ),
    (
        &[
            "inter-zone",
            "inter-az",
            "cross-zone",
            "跨可用区",
            "regional-bytes",
        ],
        ChargeKind::Transfer {
            scope: TransferScope::InterZone,
        },
    ),
    (
        &[
            "internet",
            "outbound",
            "traffic",
            "bandwidth",
            "egress",
            "流量",
            "带宽",
            "datatransfer-out",
        ],
        ChargeKind::Transfer {
            scope: TransferScope::Internet,
        },
    ),
    (
        &["data transfer", "datatransfer"],
        ChargeKind::Transfer {
            scope: TransferScope::Unknown,
        },
    ),
    (
        &[
            "elastic ip",
            "public ip",
            "eip",
            "ipv4",
            "弹性公网",
            "公网ip",
        ],
        ChargeKind::PublicIp,
    ),
    (
        &["load balanc", "负载均衡", "slb", "clb", "alb"],
        ChargeKind::LoadBalancer,
    ),
    (
        &[
            "disk",
            "volume",
            "云盘",
            "云硬盘",
            "系统盘",
            "数据盘",
            "存储空间",
        ],
        ChargeKind::Disk,
    ),
    (
        &[
            "instance",
            "virtual machine",
            "compute",
            "cpu",
            "gpu",
            "memory",
            "实例",
            "规格",
            "内存",
            "云服务器",
        ],
        ChargeKind::Compute,
    ),
];

/// The kind the first of `texts` that says one names; `Other` when none does.
pub(super) fn kind_from_texts(texts: &[Option<&str>]) -> ChargeKind {
    texts
        .iter()
        .flatten()
        .find_map(|t| kind_from_text(t))
        .unwrap_or(ChargeKind::Other)
}

fn kind_from_text(text: &str) -> Option<ChargeKind> {
    let lower = text.to_lowercase();
    KINDS
        .iter()
        .find(|(words, _)| words.iter().any(|w| lower.contains(w)))
        .map(|(_, kind)| *kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_items_and_components() {
        let k = |t: &str| kind_from_texts(&[Some(t)]);
        assert_eq!(k("快照"), ChargeKind::Snapshot);
        assert_eq!(k("高性能云硬盘-存储空间"), ChargeKind::Disk);
        assert_eq!(
            k("公网流量"),
            ChargeKind::Transfer {
                scope: TransferScope::Internet
            }
        );
        assert_eq!(k("Instance Type"), ChargeKind::Compute);
        assert_eq!(k("税费"), ChargeKind::Other);
        assert_eq!(
            kind_from_texts(&[None, Some("?"), Some("系统盘")]),
            ChargeKind::Disk
        );
    }
}
