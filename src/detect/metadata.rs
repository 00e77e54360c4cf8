//! Asking the metadata service of the cloud the machine's signs point at for the instance id,
//! region and instance type, through each cloud's own client, within one bound: a service that
//! accepts and never answers costs at most that long.

use std::time::Duration;

use super::Seams;
use crate::config::ProviderKind;
use crate::provider::ProviderError;
use crate::provider::identity::{MachineIdentity, probe_policy};

/// What one cloud's service said, and the words `doctor` shows for where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub identity: MachineIdentity,
    pub from: String,
}

/// The metadata service of `kind`, asked within `seams.bound`; `Ok(None)` for a cloud with no
/// such service, or when the service is turned off (`AWS_EC2_METADATA_DISABLED`).
// A `String` error: why the service did not answer, one line of what `detect` reports where
// it looked; nothing matches on it.
pub async fn ask(kind: ProviderKind, seams: &Seams) -> Result<Option<Answer>, String> {
    let Some((base, label)) = service(kind, seams) else {
        return Ok(None);
    };
    let from = format!("{base} ({label})");
    let asked = tokio::time::timeout(seams.bound, identity(kind, &base));
    match asked.await {
        Ok(Ok(identity)) => Ok(Some(Answer { identity, from })),
        Ok(Err(e)) => Err(format!("{from}: {e}")),
        Err(_) => Err(crate::t!(
            "detect-no-answer-within",
            from = from.as_str(),
            seconds = seconds(seams.bound)
        )),
    }
}

/// Where `kind`'s service is, and what it is called.
fn service(kind: ProviderKind, seams: &Seams) -> Option<(String, &'static str)> {
    match kind {
        ProviderKind::Aws => seams.aws_metadata.clone().map(|b| (b, "IMDSv2")),
        ProviderKind::Alibaba => Some((seams.alibaba_metadata.clone(), "ECS metadata")),
        ProviderKind::Tencent => Some((seams.tencent_metadata.clone(), "CVM metadata")),
        ProviderKind::Lambda
        | ProviderKind::Runpod
        | ProviderKind::Vast
        | ProviderKind::Autodl
        | ProviderKind::Command
        | ProviderKind::Demo => None,
    }
}

async fn identity(kind: ProviderKind, base: &str) -> Result<MachineIdentity, ProviderError> {
    let policy = probe_policy();
    match kind {
        ProviderKind::Aws => {
            let imds = crate::provider::aws::imds::Imds::new(base, policy)?;
            imds.identity().await
        }
        ProviderKind::Alibaba => {
            let service = crate::provider::alibaba::metadata::Metadata::with_policy(base, policy)?;
            service.identity().await
        }
        ProviderKind::Tencent => {
            let service = crate::provider::tencent::metadata::Metadata::new(base, policy)?;
            service.identity().await
        }
        ProviderKind::Lambda
        | ProviderKind::Runpod
        | ProviderKind::Vast
        | ProviderKind::Autodl
        | ProviderKind::Command
        | ProviderKind::Demo => Err(ProviderError::unsupported(
            kind.id(),
            crate::t!("detect-no-metadata-service"),
        )),
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}
