//! The sightings an adapter decides "absent means done" with: what the ledger says this data
//! directory has seen ([`Seen`], passed in by the command), plus every instance this adapter
//! has listed itself since. The decision is the core's ([`Seen::absent`]).

use std::sync::Mutex;

use super::{Asked, ProviderError, Seen};

#[derive(Debug, Default)]
pub struct Sightings(Mutex<Seen>);

impl Sightings {
    pub fn new(seen: Seen) -> Self {
        Sightings(Mutex::new(seen))
    }

    /// Adds what the ledger (or another source) has seen.
    pub fn add(&self, seen: &Seen) {
        if let Ok(mut s) = self.0.lock() {
            s.extend(seen);
        }
    }

    /// `provider` listed instance `id` just now, in `region` where it has regions.
    pub fn saw(&self, provider: &str, region: Option<&str>, id: &str) {
        if let Ok(mut s) = self.0.lock() {
            s.insert(provider, region, id);
        }
    }

    /// The core's rule for an instance `asked` does not find: `Ok` means it counts as released.
    pub fn absent(&self, asked: &Asked<'_>) -> Result<(), ProviderError> {
        self.0
            .lock()
            .map_or_else(|_| Seen::new().absent(asked), |s| s.absent(asked))
    }
}
