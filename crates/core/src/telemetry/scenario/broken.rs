//! What a scenario file breaks: each check's refusal, naming the key as written in the file.

/// A rule of the scenario format that a file breaks.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Broken {
    #[error("{}", crate::t!("scenario-not-percent", key = *key, value = value.to_string()))]
    NotPercent { key: &'static str, value: f64 },
    #[error("{}", crate::t!("scenario-negative", key = *key, value = value.to_string()))]
    Negative { key: &'static str, value: f64 },
    #[error("{}", crate::t!("scenario-not-share", key = *key, value = value.to_string()))]
    NotShare { key: &'static str, value: f64 },
    #[error("{}", crate::t!("scenario-not-reach", key = *key, value = value.to_string()))]
    NotReach { key: &'static str, value: f64 },
    #[error("{}", crate::t!("scenario-not-width", key = *key, value = value.to_string()))]
    NotWidth { key: &'static str, value: u32 },
    #[error("driver.cuda: {0}")]
    Cuda(String),
    /// A rule whose text needs no value.
    #[error("{0}")]
    Rule(String),
}
