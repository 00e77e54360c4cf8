//! Which cloud an instance lives in, and everything gpumeter knows about a cloud by its name
//! alone: the id the config and the JSON use, the name the screen shows, the bundled sheet it
//! falls back on, what its API can do, where its permissions are granted and where its
//! credential is looked for. Every method is one `match self` with no catch-all, so a new
//! variant makes the compiler list every answer to fill in, here and at each caller.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Capabilities;

/// The cloud the instance lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum ProviderKind {
    Demo,
    Aws,
    Alibaba,
    Tencent,
    Lambda,
    Runpod,
    Vast,
    /// AutoDL's developer API (容器实例 Pro), prepaid in CNY.
    Autodl,
    /// A user-supplied command stands in for a provider API.
    Command,
}

impl ProviderKind {
    /// Every kind, in the order help texts and error messages list them.
    pub const ALL: [ProviderKind; 9] = [
        ProviderKind::Aws,
        ProviderKind::Alibaba,
        ProviderKind::Tencent,
        ProviderKind::Lambda,
        ProviderKind::Runpod,
        ProviderKind::Vast,
        ProviderKind::Autodl,
        ProviderKind::Command,
        ProviderKind::Demo,
    ];

    /// The id the config file, `--provider`, the ledger and the JSON output use.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            ProviderKind::Demo => "demo",
            ProviderKind::Aws => "aws",
            ProviderKind::Alibaba => "alibaba",
            ProviderKind::Tencent => "tencent",
            ProviderKind::Lambda => "lambda",
            ProviderKind::Runpod => "runpod",
            ProviderKind::Vast => "vast",
            ProviderKind::Autodl => "autodl",
            ProviderKind::Command => "command",
        }
    }

    /// The name the provider's own documentation uses, as errors and FOCUS `ProviderName`
    /// show it. "Lambda Cloud", not "Lambda": alone that reads as AWS Lambda.
    #[must_use]
    pub const fn display_name(self) -> &'static str {
        match self {
            ProviderKind::Demo => "gpumeter demo cloud",
            ProviderKind::Aws => "AWS",
            ProviderKind::Alibaba => "Alibaba Cloud",
            ProviderKind::Tencent => "Tencent Cloud",
            ProviderKind::Lambda => "Lambda Cloud",
            ProviderKind::Runpod => "RunPod",
            ProviderKind::Vast => "Vast.ai",
            ProviderKind::Autodl => "AutoDL",
            ProviderKind::Command => "the command",
        }
    }

    /// The bundled sheet that prices an instance when no sheet is for its region. Alibaba and
    /// Tencent have none: their bundled sheets are mainland-China prices in CNY, which would be
    /// a wrong currency, not just a wrong price, for most other regions. The demo prices from
    /// its own fixture and the command from the config.
    #[must_use]
    pub const fn default_sheet(self) -> Option<&'static str> {
        match self {
            ProviderKind::Aws => Some("aws-us-east-1"),
            ProviderKind::Lambda => Some("lambda"),
            ProviderKind::Runpod => Some("runpod"),
            ProviderKind::Vast => Some("vast-typical"),
            // Its one sheet is an illustrative example, priced per card-hour in its own SKUs.
            ProviderKind::Alibaba
            | ProviderKind::Tencent
            | ProviderKind::Autodl
            | ProviderKind::Demo
            | ProviderKind::Command => None,
        }
    }

    /// What the provider's API can do to an instance. For `command`, the most its config may
    /// turn on: it has no start, and stop, snapshots and deadline only where configured.
    #[must_use]
    pub const fn capabilities(self) -> Capabilities {
        match self {
            ProviderKind::Demo | ProviderKind::Alibaba => Capabilities {
                stop: true,
                start: true,
                snapshots: true,
                deadline: true,
            },
            ProviderKind::Aws => Capabilities {
                stop: true,
                start: true,
                snapshots: true,
                deadline: false,
            },
            ProviderKind::Tencent => Capabilities {
                stop: true,
                start: true,
                snapshots: false,
                deadline: true,
            },
            ProviderKind::Lambda => Capabilities {
                stop: false,
                start: false,
                snapshots: false,
                deadline: false,
            },
            ProviderKind::Runpod | ProviderKind::Vast | ProviderKind::Autodl => Capabilities {
                stop: true,
                start: true,
                snapshots: false,
                deadline: false,
            },
            ProviderKind::Command => Capabilities {
                stop: true,
                start: false,
                snapshots: true,
                deadline: true,
            },
        }
    }

    /// Whether the instance type is the SKU of the region's bundled sheet, so that a user
    /// never has to name a sheet and SKU once the instance and region are known.
    #[must_use]
    pub const fn instance_type_is_sku(self) -> bool {
        match self {
            ProviderKind::Aws | ProviderKind::Alibaba | ProviderKind::Tencent => true,
            ProviderKind::Lambda
            | ProviderKind::Runpod
            | ProviderKind::Vast
            | ProviderKind::Autodl
            | ProviderKind::Command
            | ProviderKind::Demo => false,
        }
    }

    /// Where a key's permissions are granted, as a missing permission's fix names it.
    #[must_use]
    pub const fn permissions_at(self) -> &'static str {
        match self {
            ProviderKind::Aws => "IAM",
            ProviderKind::Alibaba => "RAM",
            ProviderKind::Tencent => "CAM",
            ProviderKind::Lambda => "the Lambda Cloud dashboard",
            ProviderKind::Runpod => "the key's RunPod permissions",
            ProviderKind::Vast => "the key's Vast.ai permissions",
            // The token has no scopes; the Pro API asks for a verified (实名) account.
            ProviderKind::Autodl => "the AutoDL account's verification",
            ProviderKind::Command => "the command's own setup",
            ProviderKind::Demo => "the demo settings",
        }
    }

    /// The ways to give the adapter a credential, in the order its chain looks, each a phrase
    /// to follow ("set RUNPOD_API_KEY"). Empty where none is needed.
    #[must_use]
    pub const fn credential_chain(self) -> &'static [&'static str] {
        match self {
            ProviderKind::Aws => &[
                "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
                "name a profile with AWS_PROFILE",
                "attach an instance role",
            ],
            ProviderKind::Alibaba => &[
                "set ALIBABA_CLOUD_ACCESS_KEY_ID and ALIBABA_CLOUD_ACCESS_KEY_SECRET",
                "configure the aliyun CLI",
                "attach a RAM role to the instance",
            ],
            ProviderKind::Tencent => &[
                "set TENCENTCLOUD_SECRET_ID and TENCENTCLOUD_SECRET_KEY",
                "configure tccli",
                "bind a CAM role to the instance",
            ],
            ProviderKind::Lambda => &["set LAMBDA_API_KEY"],
            ProviderKind::Runpod => &["set RUNPOD_API_KEY"],
            ProviderKind::Vast => &["set VAST_API_KEY", "CONTAINER_API_KEY inside the instance"],
            ProviderKind::Autodl => &[
                "set AUTODL_TOKEN",
                "write the token to ~/.config/gpumeter/autodl-token (or the file \
                 AUTODL_CREDENTIALS_FILE names)",
            ],
            ProviderKind::Command | ProviderKind::Demo => &[],
        }
    }

    /// Whether the inventory dates a shutdown with the provider's own time (AutoDL's
    /// `stopped_at`, the demo's history). Elsewhere the adapter can only say it saw the
    /// instance stopped, so `stopped_release_after` counts from the watchdog's first sighting.
    pub const fn dates_shutdowns(self) -> bool {
        match self {
            ProviderKind::Autodl | ProviderKind::Demo => true,
            ProviderKind::Aws
            | ProviderKind::Alibaba
            | ProviderKind::Tencent
            | ProviderKind::Lambda
            | ProviderKind::Runpod
            | ProviderKind::Vast
            | ProviderKind::Command => false,
        }
    }

    /// How long the platform keeps an instance that stays shut down before it releases it and
    /// erases its data on its own; `None` where it keeps a stopped instance until told.
    /// For a later countdown to that release.
    #[must_use]
    pub const fn released_after_stopped(self) -> Option<jiff::SignedDuration> {
        match self {
            // "实例连续关机15天会释放实例": https://www.autodl.com/docs/instance_data/ and the
            // console's instance list say it.
            ProviderKind::Autodl => Some(jiff::SignedDuration::from_hours(15 * 24)),
            ProviderKind::Aws
            | ProviderKind::Alibaba
            | ProviderKind::Tencent
            | ProviderKind::Lambda
            | ProviderKind::Runpod
            | ProviderKind::Vast
            | ProviderKind::Command
            | ProviderKind::Demo => None,
        }
    }

    /// Every id, in [`ProviderKind::ALL`]'s order, with `separator` between them.
    #[must_use]
    pub fn ids(separator: &str) -> String {
        ProviderKind::ALL.map(ProviderKind::id).join(separator)
    }

    /// The kind whose id is `id`, if any: for names read back from the ledger or an adapter,
    /// where an unknown one is shown as it is rather than refused.
    #[must_use]
    pub fn from_id(id: &str) -> Option<ProviderKind> {
        ProviderKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// A provider id that names no [`ProviderKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not one of {}", ProviderKind::ids(", "))]
pub struct UnknownProvider {
    pub given: String,
}

impl FromStr for ProviderKind {
    type Err = UnknownProvider;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProviderKind::from_id(text).ok_or_else(|| UnknownProvider {
            given: crate::text::one_line(text, 40),
        })
    }
}

impl TryFrom<String> for ProviderKind {
    type Error = UnknownProvider;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<ProviderKind> for &'static str {
    fn from(kind: ProviderKind) -> Self {
        kind.id()
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_the_bundled_traffic_routes_name_is_a_kind() {
        for id in crate::traffic::routes::providers() {
            assert!(
                id.parse::<ProviderKind>().is_ok(),
                "routes.toml names `{id}`, which is no provider"
            );
        }
    }

    #[test]
    fn every_kind_round_trips_through_its_id() {
        for kind in ProviderKind::ALL {
            assert_eq!(kind.id().parse::<ProviderKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.id());
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.id()));
            assert_eq!(serde_json::from_str::<ProviderKind>(&json).unwrap(), kind);
        }
    }

    #[test]
    fn all_holds_every_kind_once() {
        // No catch-all: a new variant stops this compiling until it is given a place in ALL.
        let place = |kind: ProviderKind| match kind {
            ProviderKind::Aws => 0,
            ProviderKind::Alibaba => 1,
            ProviderKind::Tencent => 2,
            ProviderKind::Lambda => 3,
            ProviderKind::Runpod => 4,
            ProviderKind::Vast => 5,
            ProviderKind::Autodl => 6,
            ProviderKind::Command => 7,
            ProviderKind::Demo => 8,
        };
        for (i, kind) in ProviderKind::ALL.into_iter().enumerate() {
            assert_eq!(place(kind), i, "{kind}");
        }
    }

    #[test]
    fn display_names_are_the_providers_own() {
        let names = ProviderKind::ALL.map(|k| (k.id(), k.display_name()));
        assert_eq!(
            names,
            [
                ("aws", "AWS"),
                ("alibaba", "Alibaba Cloud"),
                ("tencent", "Tencent Cloud"),
                ("lambda", "Lambda Cloud"),
                ("runpod", "RunPod"),
                ("vast", "Vast.ai"),
                ("autodl", "AutoDL"),
                ("command", "the command"),
                ("demo", "gpumeter demo cloud"),
            ]
        );
    }

    #[test]
    fn an_unknown_id_is_refused_with_every_valid_one() {
        let e = "azure".parse::<ProviderKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "`azure` is not one of aws, alibaba, tencent, lambda, runpod, vast, autodl, command, \
             demo"
        );
        assert!("AWS".parse::<ProviderKind>().is_err(), "ids are lowercase");
        let e = serde_json::from_str::<ProviderKind>("\"gcp\"").unwrap_err();
        assert!(e.to_string().contains("`gcp` is not one of aws,"), "{e}");
    }

    #[test]
    fn the_bearer_clouds_are_given_their_api_key() {
        for kind in [
            ProviderKind::Lambda,
            ProviderKind::Runpod,
            ProviderKind::Vast,
        ] {
            let first = kind.credential_chain().first().copied().unwrap_or("");
            let var = format!("{}_API_KEY", kind.id().to_ascii_uppercase());
            assert_eq!(first, format!("set {var}"), "{kind}");
        }
        assert!(ProviderKind::Demo.credential_chain().is_empty());
    }

    #[test]
    fn a_providers_errors_name_it_and_where_its_permissions_are_granted() {
        use super::super::ProviderError;
        for kind in ProviderKind::ALL {
            let slow = ProviderError::throttled(kind.id(), None).fix();
            assert!(slow.contains(kind.display_name()), "{kind}: {slow}");
            let denied = ProviderError::permission(kind.id(), None).fix();
            assert!(denied.contains(kind.permissions_at()), "{kind}: {denied}");
        }
        let stand_in = ProviderError::throttled("no provider", None).fix();
        assert!(stand_in.contains("no provider is limiting"), "{stand_in}");
    }

    #[test]
    fn only_autodl_releases_a_stopped_instance_on_its_own_after_fifteen_days() {
        for kind in ProviderKind::ALL {
            let after = kind.released_after_stopped();
            match kind {
                ProviderKind::Autodl => {
                    assert_eq!(after, Some(jiff::SignedDuration::from_hours(360)));
                }
                _ => assert_eq!(after, None, "{kind}"),
            }
        }
    }

    #[test]
    fn a_sheet_that_prices_in_another_currency_is_never_the_default() {
        assert_eq!(ProviderKind::Alibaba.default_sheet(), None);
        assert_eq!(ProviderKind::Tencent.default_sheet(), None);
        assert_eq!(ProviderKind::Aws.default_sheet(), Some("aws-us-east-1"));
    }
}
