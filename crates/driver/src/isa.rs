//! Which PTX `.version` and `.target` to write for a kernel, so that the driver on this machine
//! JIT-compiles it for this card. Pure: the driver's CUDA version and the card's compute
//! capability come in as arguments.
//!
//! Facts from NVIDIA's PTX ISA release history (PTX ISA document, "Release Notes", table "PTX
//! Release History"): a driver accepts PTX up to the ISA that shipped with its CUDA version, and
//! each `.target` needs a minimum ISA.

/// A PTX ISA version, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Isa(pub u32, pub u32);

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// (CUDA version as the driver encodes it, 1000·major + 10·minor; the newest PTX ISA it accepts).
const ISA_BY_CUDA: &[(u32, Isa)] = &[
    (9000, Isa(6, 0)),
    (9010, Isa(6, 1)),
    (9020, Isa(6, 2)),
    (10000, Isa(6, 3)),
    (10010, Isa(6, 4)),
    (10020, Isa(6, 5)),
    (11000, Isa(7, 0)),
    (11010, Isa(7, 1)),
    (11020, Isa(7, 2)),
    (11030, Isa(7, 3)),
    (11040, Isa(7, 4)),
    (11050, Isa(7, 5)),
    (11060, Isa(7, 6)),
    (11070, Isa(7, 7)),
    (11080, Isa(7, 8)),
    (12000, Isa(8, 0)),
    (12010, Isa(8, 1)),
    (12020, Isa(8, 2)),
    (12030, Isa(8, 3)),
    (12040, Isa(8, 4)),
    // 12.6 added no ISA.
    (12050, Isa(8, 5)),
    (12070, Isa(8, 6)),
    (12080, Isa(8, 7)),
    (12090, Isa(8, 8)),
    (13000, Isa(9, 0)),
    (13010, Isa(9, 1)),
    (13020, Isa(9, 2)),
];

/// The newest PTX ISA a driver of this CUDA version (`cuDriverGetVersion`) accepts; `None` for a
/// driver older than CUDA 9.0. A version newer than the table gets the newest ISA it knows,
/// which that driver accepts too.
pub fn driver_isa(cuda_version: u32) -> Option<Isa> {
    ISA_BY_CUDA
        .iter()
        .take_while(|(cuda, _)| *cuda <= cuda_version)
        .last()
        .map(|(_, isa)| *isa)
}

/// The oldest ISA that knows `.target sm_<sm>` (sm as 10·major + minor).
pub fn isa_for_target(sm: u32) -> Isa {
    match sm {
        0..=50 => Isa(4, 0),
        51..=52 => Isa(4, 1),
        53..=59 => Isa(4, 2),
        60..=69 => Isa(5, 0),
        70..=71 => Isa(6, 0),
        72..=74 => Isa(6, 1),
        75..=79 => Isa(6, 3),
        80..=85 => Isa(7, 0),
        _ => Isa(7, 1),
    }
}

/// Generic kernels (the FMA loop) target this architecture on every card at or above it: it
/// is the oldest one every current toolkit and driver JIT still builds for (CUDA 13 dropped
/// sm_50 to sm_72), and PTX for an older target runs on any newer card.
pub const BASELINE_SM: u32 = 75;

/// What a kernel's instructions need at the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// The oldest architecture that has the instructions.
    pub sm: u32,
    /// The oldest ISA that has them.
    pub isa: Isa,
}

/// The `.version` and `.target` chosen for one kernel on one card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chosen {
    pub isa: Isa,
    pub sm: u32,
}

/// Why a kernel cannot be built for this card under this driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotBuildable {
    /// The card is older than the instructions (e.g. no BF16 tensor cores before sm_80).
    CardTooOld { needs_sm: u32, card_sm: u32 },
    /// The driver does not know the PTX ISA the kernel needs.
    DriverTooOld { needs: Isa, driver: Option<Isa> },
}

impl std::fmt::Display for NotBuildable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotBuildable::CardTooOld { needs_sm, card_sm } => {
                write!(f, "needs sm_{needs_sm} or newer, this card is sm_{card_sm}")
            }
            NotBuildable::DriverTooOld { needs, driver } => match driver {
                Some(have) => write!(f, "needs PTX ISA {needs}, this driver accepts up to {have}"),
                None => write!(
                    f,
                    "needs PTX ISA {needs}, this driver is older than CUDA 9.0"
                ),
            },
        }
    }
}

/// The oldest target and ISA that have the kernel's instructions, never below
/// [`BASELINE_SM`] unless the card itself is older: the oldest target is the one every driver
/// that runs the card accepts.
pub fn choose(needs: Needs, card_sm: u32, cuda_version: u32) -> Result<Chosen, NotBuildable> {
    if card_sm < needs.sm {
        return Err(NotBuildable::CardTooOld {
            needs_sm: needs.sm,
            card_sm,
        });
    }
    let sm = needs.sm.max(BASELINE_SM.min(card_sm));
    let isa = needs.isa.max(isa_for_target(sm));
    let driver = driver_isa(cuda_version);
    match driver {
        Some(have) if have >= isa => Ok(Chosen { isa, sm }),
        _ => Err(NotBuildable::DriverTooOld { needs: isa, driver }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FMA: Needs = Needs {
        sm: 50,
        isa: Isa(4, 0),
    };
    const MMA_BF16: Needs = Needs {
        sm: 80,
        isa: Isa(7, 0),
    };

    #[test]
    fn the_driver_accepts_the_isa_of_its_own_release_and_newer_drivers_the_newest_known() {
        assert_eq!(driver_isa(12080), Some(Isa(8, 7)));
        // 12.6 shipped no ISA of its own: 12.5's.
        assert_eq!(driver_isa(12060), Some(Isa(8, 5)));
        assert_eq!(driver_isa(99990), ISA_BY_CUDA.last().map(|(_, isa)| *isa));
        assert_eq!(driver_isa(8000), None);
    }

    #[test]
    fn the_table_is_in_order() {
        assert!(
            ISA_BY_CUDA
                .windows(2)
                .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1)
        );
    }

    #[test]
    fn a_tensor_kernel_targets_its_oldest_architecture_on_a_newer_card() {
        let chosen = choose(MMA_BF16, 90, 12020).unwrap();
        assert_eq!(
            chosen,
            Chosen {
                isa: Isa(7, 0),
                sm: 80
            }
        );
    }

    #[test]
    fn a_generic_kernel_targets_the_baseline_on_new_cards_and_the_card_itself_below_it() {
        let h100 = choose(FMA, 90, 13000).unwrap();
        assert_eq!(
            (h100.sm, h100.isa),
            (BASELINE_SM, isa_for_target(BASELINE_SM))
        );
        let v100 = choose(FMA, 70, 12000).unwrap();
        assert_eq!((v100.sm, v100.isa), (70, isa_for_target(70)));
    }

    #[test]
    fn a_card_older_than_the_instructions_is_refused() {
        assert_eq!(
            choose(MMA_BF16, 75, 12000),
            Err(NotBuildable::CardTooOld {
                needs_sm: 80,
                card_sm: 75
            })
        );
    }

    #[test]
    fn a_driver_older_than_the_isa_is_refused_and_says_what_it_accepts() {
        let err = choose(MMA_BF16, 80, 10020).unwrap_err();
        assert_eq!(
            err,
            NotBuildable::DriverTooOld {
                needs: Isa(7, 0),
                driver: Some(Isa(6, 5))
            }
        );
        assert!(err.to_string().contains("7.0") && err.to_string().contains("6.5"));
    }
}
