//! The instance an adapter acts on: the one the config or the flags name, else the one the
//! metadata service names, asked once.

use crate::provider::ProviderError;

pub struct InstanceId {
    configured: Option<String>,
    asked: tokio::sync::OnceCell<String>,
}

impl InstanceId {
    pub fn new(configured: Option<String>) -> Self {
        InstanceId {
            configured,
            asked: tokio::sync::OnceCell::new(),
        }
    }

    /// The configured id, else what `ask` answers (asked on the first call only).
    pub async fn get<F>(&self, ask: impl FnOnce() -> F) -> Result<String, ProviderError>
    where
        F: Future<Output = Result<String, ProviderError>>,
    {
        if let Some(id) = &self.configured {
            return Ok(id.clone());
        }
        self.asked.get_or_try_init(ask).await.cloned()
    }

    /// The id for a plan, without asking anyone.
    pub fn planned(&self) -> String {
        self.configured
            .clone()
            .or_else(|| self.asked.get().cloned())
            .unwrap_or_else(|| crate::t!("rpc-planned-instance").into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_configured_id_wins_and_the_service_is_asked_once() {
        let configured = InstanceId::new(Some("i-conf".into()));
        let asked = || async { Ok::<_, ProviderError>("i-meta".to_string()) };
        assert_eq!(configured.get(asked).await.unwrap(), "i-conf");
        let unset = InstanceId::new(None);
        assert!(unset.planned().contains("metadata service"));
        assert_eq!(unset.get(asked).await.unwrap(), "i-meta");
        let never = || async { Err(ProviderError::state("test", "asked twice")) };
        assert_eq!(unset.get(never).await.unwrap(), "i-meta");
        assert_eq!(unset.planned(), "i-meta");
    }
}
