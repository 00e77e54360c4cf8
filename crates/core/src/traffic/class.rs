//! The destinations a sheet prices apart.

use serde::Serialize;

/// Where bytes went, as the provider bills them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrafficClass {
    /// The instance's VPC, private ranges and the provider's services in its own region:
    /// usually free.
    Intranet,
    /// The provider's addresses in another region: its own rate.
    CrossRegion,
    /// Everything else: public egress.
    Internet,
}

impl TrafficClass {
    pub const ALL: [TrafficClass; 3] = [
        TrafficClass::Internet,
        TrafficClass::Intranet,
        TrafficClass::CrossRegion,
    ];

    /// The id JSON, CSV, FOCUS and metric labels use; never translated.
    pub const fn id(self) -> &'static str {
        match self {
            TrafficClass::Intranet => "intranet",
            TrafficClass::CrossRegion => "cross_region",
            TrafficClass::Internet => "internet",
        }
    }
}

/// Of the bytes a metered interface sent, those that went to cheaper destinations; the rest is
/// internet egress.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EgressSplit {
    pub intranet: u64,
    pub cross_region: u64,
}

impl EgressSplit {
    /// Adds `bytes` to `class`; internet bytes are not held, they are what remains.
    pub fn add(&mut self, class: TrafficClass, bytes: u64) {
        match class {
            TrafficClass::Intranet => self.intranet = self.intranet.saturating_add(bytes),
            TrafficClass::CrossRegion => {
                self.cross_region = self.cross_region.saturating_add(bytes);
            }
            TrafficClass::Internet => {}
        }
    }

    pub fn merge(&mut self, other: EgressSplit) {
        self.add(TrafficClass::Intranet, other.intranet);
        self.add(TrafficClass::CrossRegion, other.cross_region);
    }

    /// The split of `total` bytes sent: the classified bytes never exceed it (socket payloads
    /// are counted without headers, the interface with them), and internet is what is left, so
    /// header bytes and anything not attributed are priced as internet, never hidden.
    #[must_use]
    pub fn within(self, total: u64) -> EgressSplit {
        let intranet = self.intranet.min(total);
        let cross_region = self.cross_region.min(total - intranet);
        EgressSplit {
            intranet,
            cross_region,
        }
    }

    /// What these running totals gained since `last`, field by field (see [`counter_since`]).
    #[must_use]
    pub fn since(self, last: EgressSplit) -> EgressSplit {
        EgressSplit {
            intranet: counter_since(last.intranet, self.intranet),
            cross_region: counter_since(last.cross_region, self.cross_region),
        }
    }

    /// The internet bytes of `total` once this split is taken out of it.
    pub fn internet_of(self, total: u64) -> u64 {
        let s = self.within(total);
        total - s.intranet - s.cross_region
    }
}

/// What a byte counter gained from `last` to `now`; one that went back (a reboot, a reader
/// started again) restarts from its new value.
pub fn counter_since(last: u64, now: u64) -> u64 {
    now.checked_sub(last).unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_never_exceeds_what_the_interface_sent_and_internet_is_the_rest() {
        let split = EgressSplit {
            intranet: 70,
            cross_region: 50,
        };
        assert_eq!(
            split.within(100),
            EgressSplit {
                intranet: 70,
                cross_region: 30
            }
        );
        assert_eq!(split.internet_of(100), 0);
        assert_eq!(split.internet_of(1000), 880);
    }

    #[test]
    fn a_running_split_gains_per_field_and_a_counter_that_went_back_restarts() {
        let last = EgressSplit {
            intranet: 100,
            cross_region: 50,
        };
        let now = EgressSplit {
            intranet: 130,
            cross_region: 7,
        };
        assert_eq!(
            now.since(last),
            EgressSplit {
                intranet: 30,
                cross_region: 7
            }
        );
    }
}
