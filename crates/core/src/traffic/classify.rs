//! An address to the class of traffic it is billed as, for one instance's provider and region.
//!
//! In order: the provider's bundled service ranges for the instance's own region and the
//! user's `[traffic] intranet` ranges are intranet; the provider's ranges listed for any other
//! region are cross-region; private, shared (CGNAT) and link-local addresses are intranet (a
//! VPC and the provider's internal services live there); everything else is the internet.
//! Loopback never leaves the machine and is not classified.

use std::net::IpAddr;

use ipnet::IpNet;

use super::class::TrafficClass;
use super::routes;

/// Private (RFC 1918), shared address space (RFC 6598, where Alibaba's internal services
/// live), link-local (RFC 3927, where Tencent's are) and IPv6 unique-local and link-local.
const PRIVATE: [&str; 7] = [
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "100.64.0.0/10",
    "169.254.0.0/16",
    "fc00::/7",
    "fe80::/10",
];

#[derive(Debug, Clone)]
pub struct Classifier {
    own_region: Vec<IpNet>,
    other_regions: Vec<IpNet>,
    private: Vec<IpNet>,
}

impl Classifier {
    /// For an instance of `provider` (its id: `alibaba`) in `region`, with the user's own
    /// intranet ranges.
    pub fn new(provider: &str, region: &str, user_intranet: &[IpNet]) -> Self {
        let mut own_region = user_intranet.to_vec();
        let mut other_regions = Vec::new();
        if let Some(r) = routes::for_provider(provider) {
            for (name, nets) in &r.intranet {
                if name == region {
                    own_region.extend_from_slice(nets);
                } else {
                    other_regions.extend_from_slice(nets);
                }
            }
        }
        let private = PRIVATE
            .iter()
            .map(|n| n.parse().expect("the private ranges parse"))
            .collect();
        Classifier {
            own_region,
            other_regions,
            private,
        }
    }

    /// The class of traffic to `addr`, or `None` for loopback, which no interface bills.
    pub fn classify(&self, addr: IpAddr) -> Option<TrafficClass> {
        let addr = match addr {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(addr, IpAddr::V4),
            v4 @ IpAddr::V4(_) => v4,
        };
        if addr.is_loopback() || addr.is_unspecified() {
            return None;
        }
        let within = |nets: &[IpNet]| nets.iter().any(|n| n.contains(&addr));
        Some(if within(&self.own_region) {
            TrafficClass::Intranet
        } else if within(&self.other_regions) {
            TrafficClass::CrossRegion
        } else if within(&self.private) {
            TrafficClass::Intranet
        } else {
            TrafficClass::Internet
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(c: &Classifier, addr: &str) -> Option<TrafficClass> {
        c.classify(addr.parse().unwrap())
    }

    #[test]
    fn the_providers_ranges_split_own_region_from_other_regions() {
        let c = Classifier::new("alibaba", "cn-hangzhou", &[]);
        // An OSS VIP of Hangzhou, of Beijing, a VPC peer, the internet, loopback.
        assert_eq!(class(&c, "100.118.28.7"), Some(TrafficClass::Intranet));
        assert_eq!(class(&c, "100.118.58.9"), Some(TrafficClass::CrossRegion));
        assert_eq!(class(&c, "172.16.3.4"), Some(TrafficClass::Intranet));
        assert_eq!(class(&c, "203.0.113.5"), Some(TrafficClass::Internet));
        assert_eq!(
            class(&c, "::ffff:203.0.113.5"),
            Some(TrafficClass::Internet)
        );
        assert_eq!(class(&c, "127.0.0.1"), None);
        assert_eq!(class(&c, "::1"), None);
    }

    #[test]
    fn the_users_ranges_are_intranet_before_anything_else() {
        let s3: IpNet = "52.219.0.0/20".parse().unwrap();
        let c = Classifier::new("aws", "us-east-1", &[s3]);
        assert_eq!(class(&c, "52.219.4.1"), Some(TrafficClass::Intranet));
        assert_eq!(class(&c, "52.220.4.1"), Some(TrafficClass::Internet));
    }
}
