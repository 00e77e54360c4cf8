//! When "the provider does not list it" may be read as "it is released".
//!
//! A provider answers the same way for an instance that was released and for one it never had:
//! a mistyped id, the wrong region, the wrong endpoint, a proxy's 404. Counting the second as
//! done would print "released" for an instance that goes on billing. So an absent instance
//! counts as released only when this data directory has seen it exist (the ledger holds a
//! session or an inventory of it, or this process listed it); otherwise it is a state error
//! that names where the provider was asked. The edges read the sightings; the rule is here.

use std::collections::BTreeSet;

use super::ProviderError;

/// The instances this data directory has seen exist, by provider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen(BTreeSet<(String, String)>);

impl Seen {
    pub fn new() -> Self {
        Seen::default()
    }

    /// Records that `provider` listed instance `id`.
    pub fn insert(&mut self, provider: &str, id: &str) {
        if !id.trim().is_empty() {
            self.0.insert((provider.to_string(), id.to_string()));
        }
    }

    pub fn contains(&self, provider: &str, id: &str) -> bool {
        self.0.contains(&(provider.to_string(), id.to_string()))
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

    /// What an instance `asked` finds absent means: `Ok` when it was seen, so it is released;
    /// else the error to show, which names the region and the endpoint asked.
    pub fn absent(&self, asked: &Asked<'_>) -> Result<(), ProviderError> {
        if self.contains(asked.provider, asked.instance) {
            Ok(())
        } else {
            Err(never_seen(asked))
        }
    }
}

impl<P: AsRef<str>, I: AsRef<str>> FromIterator<(P, I)> for Seen {
    fn from_iter<T: IntoIterator<Item = (P, I)>>(iter: T) -> Self {
        let mut seen = Seen::new();
        for (p, i) in iter {
            seen.insert(p.as_ref(), i.as_ref());
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
            Some(region) => format!("region {region} at {}", self.endpoint),
            None => self.endpoint.to_string(),
        }
    }
}

fn never_seen(asked: &Asked<'_>) -> ProviderError {
    let place = asked.place();
    let settings = if asked.region.is_some() {
        "--instance and --region (or [instance] id and region in the config)"
    } else {
        "--instance (or [instance] id in the config) and the endpoint"
    };
    ProviderError::state(
        asked.provider,
        format!(
            "instance {} is not listed in {place}, and this data directory has never seen it: \
             not counted as released, nothing was changed",
            asked.instance
        ),
    )
    .with_fix(&format!(
        "check {settings}: asked {place} for {}",
        asked.instance
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
    }

    #[test]
    fn blank_ids_are_never_sightings() {
        let mut seen = Seen::new();
        seen.insert("aws", " ");
        assert!(seen.is_empty());
        let mut more: Seen = [("aws", "i-1")].into_iter().collect();
        more.extend(&[("aws", "i-2")].into_iter().collect());
        assert_eq!(more.len(), 2);
    }
}
