//! The lines that name what a total leaves out because the sheet cannot price it ("snapshot
//! snap-0a: storage.snapshot_per_gib_month unknown"). They are made here, in English, as JSON
//! carries them; [`shown`] says one in the user's language for a terminal. A line it does not
//! know (one a caller made itself) is shown as it is.

use super::usage::ResourceKind;
use crate::t;

const NO_GPU: &str = "compute without GPUs: billing.no_gpu_per_hour unknown";
const LICENCE: &str = "licence: extras.license_per_hour unknown";
const EGRESS: &str = "egress: network.egress_per_unit unknown";
const FIXED_BANDWIDTH: &str = "fixed bandwidth: its Mbps unknown (network.fixed_bandwidth_mbps \
                               or the config's instance.bandwidth_mbps)";
const NEVER_LISTED: &str =
    "instance: no longer listed, so what it cost before its release is unknown";
const NO_PRICE: &str = "no price in the sheet";

/// Every kind, for reading a line's subject back.
const KINDS: [ResourceKind; 8] = [
    ResourceKind::SystemDisk,
    ResourceKind::DataDisk,
    ResourceKind::Snapshot,
    ResourceKind::Image,
    ResourceKind::PublicIp,
    ResourceKind::LoadBalancer,
    ResourceKind::NetworkVolume,
    ResourceKind::StoppedInstance,
];

/// A resource the sheet has no price for, named with the sheet's missing key.
pub fn resource(kind: ResourceKind, id: &str, key: &str) -> String {
    format!("{} {id}: {key} unknown", kind.label())
}

/// A leftover whose month the sheet cannot price.
pub fn leftover(kind: ResourceKind, id: &str) -> String {
    format!(
        "{} {}: {NO_PRICE}",
        kind.label(),
        crate::text::one_line(id, 80)
    )
}

/// Time in the no-GPU mode, which the sheet has no price for.
pub fn no_gpu() -> String {
    NO_GPU.to_string()
}

/// Licences, which the sheet has no hourly price for.
pub fn licence() -> String {
    LICENCE.to_string()
}

/// Billable egress, which the sheet has no price for.
pub fn egress() -> String {
    EGRESS.to_string()
}

/// A fixed-bandwidth plan whose Mbps neither the sheet nor the config states.
pub fn fixed_bandwidth() -> String {
    FIXED_BANDWIDTH.to_string()
}

/// An instance never seen listed: what it cost before its release.
pub fn never_listed() -> String {
    NEVER_LISTED.to_string()
}

/// `line` in the user's language: the kinds and sentences translated, the ids and the sheet's
/// keys as they are. English gives `line` back unchanged.
pub fn shown(line: &str) -> String {
    match line {
        NO_GPU => return t!("unpriced-no-gpu").into_owned(),
        LICENCE => return t!("unpriced-licence").into_owned(),
        EGRESS => return t!("unpriced-egress").into_owned(),
        FIXED_BANDWIDTH => return t!("unpriced-fixed-bandwidth").into_owned(),
        NEVER_LISTED => return t!("unpriced-never-listed").into_owned(),
        _ => {}
    }
    let Some((head, tail)) = line.rsplit_once(": ") else {
        return line.to_string();
    };
    let Some((kind, id)) = KINDS.iter().find_map(|k| {
        let id = head.strip_prefix(k.label())?.strip_prefix(' ')?;
        Some((*k, id))
    }) else {
        return line.to_string();
    };
    if tail == NO_PRICE {
        return t!("unpriced-leftover", kind = kind.shown(), id = id);
    }
    let Some(key) = tail.strip_suffix(" unknown") else {
        return line.to_string();
    };
    // A stopped instance that still bills is priced by its type's compute.
    if let Some(class) = key.strip_prefix("compute of ")
        && !class.contains(' ')
    {
        return t!(
            "unpriced-compute",
            kind = kind.shown(),
            id = id,
            class = class
        );
    }
    if key.is_empty() || key.contains(' ') {
        return line.to_string();
    }
    t!("unpriced-resource", kind = kind.shown(), id = id, key = key)
}

/// Every line of `lines` as [`shown`] says it.
pub fn all_shown(lines: &[String]) -> Vec<String> {
    lines.iter().map(|l| shown(l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, scoped};

    fn every_line() -> Vec<String> {
        vec![
            resource(
                ResourceKind::Snapshot,
                "snap-0a",
                "storage.snapshot_per_gib_month",
            ),
            resource(
                ResourceKind::PublicIp,
                "eip-1",
                "network.public_ip_per_hour",
            ),
            leftover(ResourceKind::LoadBalancer, "lb-0api"),
            resource(
                ResourceKind::StoppedInstance,
                "i-1",
                "compute of ecs.gn7i-c8g1.2xlarge",
            ),
            no_gpu(),
            licence(),
            egress(),
            fixed_bandwidth(),
            never_listed(),
        ]
    }

    #[test]
    fn english_shows_each_line_as_json_carries_it() {
        for line in every_line() {
            assert_eq!(scoped(Lang::En, || shown(&line)), line);
        }
        assert_eq!(
            every_line()[0],
            "snapshot snap-0a: storage.snapshot_per_gib_month unknown"
        );
    }

    #[test]
    fn chinese_keeps_the_ids_and_keys_and_translates_the_rest() {
        let lines = every_line();
        let chinese = scoped(Lang::ZhCn, || all_shown(&lines));
        assert_eq!(
            chinese[0],
            "快照 snap-0a：价格表缺少 storage.snapshot_per_gib_month"
        );
        assert!(chinese[2].starts_with("负载均衡 lb-0api"), "{}", chinese[2]);
        for (english, said) in lines.iter().zip(&chinese) {
            assert_ne!(english, said);
            assert!(!said.contains("unknown"), "{said}");
            assert!(!said.contains("no price"), "{said}");
            assert!(
                said.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{said}"
            );
        }
        assert!(
            chinese[3].contains("ecs.gn7i-c8g1.2xlarge"),
            "{}",
            chinese[3]
        );
        assert!(
            chinese[4].contains("billing.no_gpu_per_hour"),
            "{}",
            chinese[4]
        );
    }

    #[test]
    fn a_line_made_elsewhere_is_shown_as_it_is() {
        for line in [
            "gpu: something else",
            "snapshot s-1: two words unknown",
            "plain",
        ] {
            assert_eq!(scoped(Lang::ZhCn, || shown(line)), line);
        }
    }
}
