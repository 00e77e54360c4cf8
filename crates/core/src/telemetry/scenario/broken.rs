//! What a scenario file breaks: each check's refusal, naming the key as written in the file.

/// A rule of the scenario format that a file breaks.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Broken {
    #[error("{key} = {value} is not between 0 and 100")]
    NotPercent { key: &'static str, value: f64 },
    #[error("{key} = {value} must be zero or more")]
    Negative { key: &'static str, value: f64 },
    #[error("{key} = {value} must be above 0 and at most 1")]
    NotShare { key: &'static str, value: f64 },
    #[error("{key} = {value} is not between 0 and 1.5")]
    NotReach { key: &'static str, value: f64 },
    #[error("{key} = {value} is not a PCIe link width")]
    NotWidth { key: &'static str, value: u32 },
    #[error("driver.cuda: {0}")]
    Cuda(String),
    /// A rule whose text needs no value.
    #[error("{0}")]
    Rule(&'static str),
}
