//! When "the provider does not list it" may be read as "it is released".
//!
//! A provider answers the same way for an instance that was released and for one it never had:
//! a mistyped id, the wrong region, the wrong endpoint, a proxy's 404. Counting the second as
//! done would print "released" for an instance that goes on billing. So an absent instance
//! counts as released only when this data directory has seen it exist (the ledger holds a
//! session or an inventory of it, or this process listed it) in the region asked, where the
//! sighting names one; otherwise it is a state error that names where the provider was asked.
//! The edges read the sightings; the rule is here.

use std::collections::BTreeSet;

use super::ProviderError;

/// The instances this data directory has seen exist: (provider, instance id, region). A
/// sighting without a region (a provider without regions, or one recorded before regions
/// were) stands for every region.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen(BTreeSet<(String, String, Option<String>)>);

impl Seen {
    pub fn new() -> Self {
        Seen::default()
    }

    /// Records that `provider` listed instance `id` in `region` (`None` where not known).
    pub fn insert(&mut self, provider: &str, region: Option<&str>, id: &str) {
        if !id.trim().is_empty() {
            let region = known(region).map(str::to_string);
            self.0
                .insert((provider.to_string(), id.to_string(), region));
        }
    }

    /// The regions `provider` listed `id` in; a `None` among them stands for any.
    fn regions<'a>(
        &'a self,
        provider: &'a str,
        id: &'a str,
    ) -> impl Iterator<Item = Option<&'a str>> {
        self.0
            .iter()
            .filter(move |(p, i, _)| p == provider && i == id)
            .map(|(_, _, r)| r.as_deref())
    }

    /// Whether `provider` listed `id` in any region.
    pub fn contains(&self, provider: &str, id: &str) -> bool {
        self.regions(provider, id).next().is_some()
    }

    /// `self` with every sighting of `other` too.
    pub fn extend(&mut self, other: &Seen) {
        self.0.extend(other.0.iter().cloned());
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What an instance `asked` finds absent means: `Ok` when it was seen in the region asked
    /// (or where the region is not known), so it is released; else the error to show, which
    /// names the region and the endpoint asked, and the regions it was seen in if any.
    pub fn absent(&self, asked: &Asked<'_>) -> Result<(), ProviderError> {
        let regions: Vec<Option<&str>> = self.regions(asked.provider, asked.instance).collect();
        let asked_region = known(asked.region);
        if regions.is_empty() {
            Err(never_seen(asked))
        } else if asked_region.is_none()
            || regions.iter().any(|r| r.is_none() || *r == asked_region)
        {
            Ok(())
        } else {
            Err(seen_elsewhere(
                asked,
                &regions.into_iter().flatten().collect::<Vec<_>>(),
            ))
        }
    }
}

/// A region, or `None` for a blank one.
fn known(region: Option<&str>) -> Option<&str> {
    region.filter(|r| !r.trim().is_empty())
}

/// Sightings without a region, as old ledgers and tests list them.
impl<P: AsRef<str>, I: AsRef<str>> FromIterator<(P, I)> for Seen {
    fn from_iter<T: IntoIterator<Item = (P, I)>>(iter: T) -> Self {
        let mut seen = Seen::new();
        for (p, i) in iter {
            seen.insert(p.as_ref(), None, i.as_ref());
        }
        seen
    }
}

/// Sightings as (provider, region, id).
impl<'a, P: AsRef<str>, I: AsRef<str>> FromIterator<(P, Option<&'a str>, I)> for Seen {
    fn from_iter<T: IntoIterator<Item = (P, Option<&'a str>, I)>>(iter: T) -> Self {
        let mut seen = Seen::new();
        for (p, r, i) in iter {
            seen.insert(p.as_ref(), r, i.as_ref());
        }
        seen
    }
}

/// Where the provider was asked about an instance, for the error when it does not list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked<'a> {
    /// The adapter's name (`aws`).
    pub provider: &'a str,
    pub instance: &'a str,
    /// `None` for a provider without regions in its API (Vast.ai, RunPod).
    pub region: Option<&'a str>,
    /// The API endpoint the call went to.
    pub endpoint: &'a str,
}

impl Asked<'_> {
    /// `region eu-west-1 at https://...`, or `https://...` alone.
    fn place(&self) -> String {
        match self.region.filter(|r| !r.is_empty()) {
            Some(region) => crate::t!("err-seen-place", region = region, endpoint = self.endpoint),
            None => self.endpoint.to_string(),
        }
    }
}

fn never_seen(asked: &Asked<'_>) -> ProviderError {
    let place = asked.place();
    let settings = if asked.region.is_some() {
        crate::t!("err-seen-settings-region")
    } else {
        crate::t!("err-seen-settings-endpoint")
    };
    let instance = asked.instance;
    ProviderError::state(
        asked.provider,
        crate::t!(
            "err-seen-never",
            instance = instance,
            place = place.as_str()
        ),
    )
    .with_fix(&crate::t!(
        "err-seen-never-fix",
        settings = settings,
        place = place.as_str(),
        instance = instance
    ))
}

/// Seen, but only in other regions: a wrong `--region` gets "not found" for an instance that
/// goes on billing where it is.
fn seen_elsewhere(asked: &Asked<'_>, regions: &[&str]) -> ProviderError {
    let place = asked.place();
    let regions = regions.join(", ");
    let instance = asked.instance;
    ProviderError::state(
        asked.provider,
        crate::t!(
            "err-seen-elsewhere",
            instance = instance,
            place = place.as_str(),
            regions = regions.as_str()
        ),
    )
    .with_fix(&crate::t!(
        "err-seen-elsewhere-fix",
        region = known(asked.region).unwrap_or_default(),
        instance = instance,
        regions = regions.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cloud::ErrorKind;

    const ASKED: Asked<'static> = Asked {
        provider: "aws",
        instance: "i-0abc",
        region: Some("eu-west-1"),
        endpoint: "https://ec2.eu-west-1.amazonaws.com",
    };

    #[test]
    fn an_instance_seen_before_is_released_once_absent() {
        let seen: Seen = [("aws", "i-0abc")].into_iter().collect();
        assert_eq!(seen.absent(&ASKED), Ok(()));
    }

    #[test]
    fn an_instance_never_seen_is_an_error_naming_the_region_and_endpoint() {
        for seen in [
            Seen::new(),
            [("aws", "i-0abd")].into_iter().collect(),
            // The same id at another provider is another instance.
            [("alibaba", "i-0abc")].into_iter().collect::<Seen>(),
        ] {
            let e = seen.absent(&ASKED).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::State { fix: Some(_) }),
                "{e:?}"
            );
            let text = e.to_string();
            assert!(text.contains("i-0abc"), "{text}");
            assert!(text.contains("region eu-west-1"), "{text}");
            assert!(
                text.contains("https://ec2.eu-west-1.amazonaws.com"),
                "{text}"
            );
            assert!(text.contains("never seen"), "{text}");
            assert!(e.fix().contains("--region"), "{}", e.fix());
            assert!(e.fix().contains("eu-west-1"), "{}", e.fix());
        }
    }

    #[test]
    fn a_provider_without_regions_names_the_endpoint() {
        let asked = Asked {
            provider: "vast",
            instance: "123",
            region: None,
            endpoint: "https://console.vast.ai",
        };
        let e = Seen::new().absent(&asked).unwrap_err();
        assert!(e.to_string().contains("https://console.vast.ai"), "{e}");
        assert!(!e.to_string().contains("region"), "{e}");
        assert!(e.fix().contains("endpoint"), "{}", e.fix());
        let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
            Seen::new().absent(&ASKED).unwrap_err().shown()
        });
        assert!(
            chinese.contains("从未见过") && chinese.contains("地域 eu-west-1"),
            "{chinese}"
        );
    }

    #[test]
    fn blank_ids_are_never_sightings() {
        let mut seen = Seen::new();
        seen.insert("aws", Some("eu-west-1"), " ");
        assert!(seen.is_empty());
        let mut more: Seen = [("aws", "i-1")].into_iter().collect();
        more.extend(&[("aws", "i-2")].into_iter().collect());
        assert_eq!(more.len(), 2);
    }

    #[test]
    fn an_instance_seen_in_another_region_is_an_error_naming_both() {
        let seen: Seen = [("aws", Some("eu-west-1"), "i-0abc")].into_iter().collect();
        let asked = Asked {
            region: Some("us-east-1"),
            endpoint: "https://ec2.us-east-1.amazonaws.com",
            ..ASKED
        };
        let e = seen.absent(&asked).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::State { fix: Some(_) }),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(text.contains("i-0abc"), "{text}");
        assert!(text.contains("region us-east-1"), "{text}");
        assert!(text.contains("seen it only in region eu-west-1"), "{text}");
        assert!(e.fix().contains("--region"), "{}", e.fix());
        assert!(e.fix().contains("us-east-1"), "{}", e.fix());
        assert!(e.fix().contains("eu-west-1"), "{}", e.fix());
        // Seen in the region asked as well: released there.
        let also: Seen = [
            ("aws", Some("eu-west-1"), "i-0abc"),
            ("aws", Some("us-east-1"), "i-0abc"),
        ]
        .into_iter()
        .collect();
        assert_eq!(also.absent(&asked), Ok(()));
        assert_eq!(seen.absent(&ASKED), Ok(()));
    }

    #[test]
    fn a_sighting_without_a_region_stands_for_any_region() {
        let seen: Seen = [("aws", None, "i-0abc")].into_iter().collect();
        for region in [Some("eu-west-1"), Some("us-east-1"), None] {
            assert_eq!(
                seen.absent(&Asked { region, ..ASKED }),
                Ok(()),
                "{region:?}"
            );
        }
        // And a question without a region is answered by a sighting in any.
        let seen: Seen = [("aws", Some("eu-west-1"), "i-0abc")].into_iter().collect();
        assert_eq!(
            seen.absent(&Asked {
                region: None,
                ..ASKED
            }),
            Ok(())
        );
        assert_eq!(
            seen.absent(&Asked {
                region: Some(""),
                ..ASKED
            }),
            Ok(())
        );
    }
}
