//! The part of every cloud's key store that is the same: the set in use, fetched again once it
//! is no longer fresh, a failed refresh that keeps the old set while it still works, and every
//! set ever handed out, so that text can be redacted of all of them.

use jiff::Timestamp;

/// A set of keys that may stop working.
pub trait Expiring: Clone + Send {
    /// When they stop working; `None` for keys without an end.
    fn expires(&self) -> Option<Timestamp>;
}

pub struct KeyCache<K> {
    cached: tokio::sync::Mutex<Option<K>>,
    /// Every set handed out, so text can be redacted without waiting for the lock above.
    handed: std::sync::Mutex<Vec<K>>,
}

impl<K: Expiring> KeyCache<K> {
    /// Holding `given` from the start, when there is one.
    pub fn new(given: Option<K>) -> Self {
        KeyCache {
            handed: std::sync::Mutex::new(given.iter().cloned().collect()),
            cached: tokio::sync::Mutex::new(given),
        }
    }

    /// The set held while `fresh` says it is, else the one `fetch` brings. A failed fetch
    /// keeps the old set while it still works, and is the error once it does not.
    pub async fn get<E>(
        &self,
        fresh: impl Fn(&K) -> bool,
        fetch: impl Future<Output = Result<K, E>>,
    ) -> Result<K, E> {
        let mut cached = self.cached.lock().await;
        if let Some(keys) = cached.as_ref().filter(|k| fresh(k)) {
            return Ok(keys.clone());
        }
        let fetched = match (fetch.await, cached.as_ref()) {
            (Ok(fetched), _) => fetched,
            (Err(_), Some(old)) if old.expires().is_some_and(|e| e > Timestamp::now()) => {
                return Ok(old.clone());
            }
            (Err(e), _) => return Err(e),
        };
        if let Ok(mut handed) = self.handed.lock() {
            handed.push(fetched.clone());
        }
        *cached = Some(fetched.clone());
        Ok(fetched)
    }

    /// Every set handed out so far.
    pub fn handed(&self) -> Vec<K> {
        self.handed.lock().map(|h| h.clone()).unwrap_or_default()
    }
}
