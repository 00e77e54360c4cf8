//! What an AWS key may do, asked of EC2 without doing it: each call with `DryRun=true`, which
//! EC2 answers `DryRunOperation` when the key may and `UnauthorizedOperation` when it may not
//! (the API reference's words for the `DryRun` parameter). moto says `AccessDenied` for the
//! latter; both are read as "refused".

use std::sync::Arc;

use super::checks::{Act, Permission, Probe};
use crate::provider::ProviderError;
use crate::provider::aws::credentials::{AwsEnv, AwsSettings};
use crate::provider::aws::imds::Imds;
use crate::provider::aws::query::{Ec2, Ec2Error};
use crate::provider::http::{HttpPolicy, Repeat};

const ALLOWED: &str = "DryRunOperation";
const REFUSED: [&str; 2] = ["UnauthorizedOperation", "AccessDenied"];

/// The credentials' source (or where they were looked for), and each action's answer.
pub async fn probe(
    env: &AwsEnv,
    instance: Option<String>,
    region: Option<String>,
    policy: HttpPolicy,
) -> (Probe, Vec<(Act, Permission)>) {
    let mut settings = AwsSettings::resolve(env, instance, region);
    settings
        .complete(crate::provider::aws::imds::policy())
        .await;
    let keys = match &settings.credentials {
        Ok(keys) => keys.clone(),
        Err(e) => {
            return (
                Probe::Failed(refusal(e)),
                not_asked(&crate::t!("doctor-no-key")),
            );
        }
    };
    let from = Probe::Found(format!("{:?}", keys.source()));
    let (region, endpoint) = match (&settings.region, &settings.endpoint) {
        (Ok(region), Some(endpoint)) => (region.clone(), endpoint.clone()),
        (Err(e), _) => return (from, not_asked(&refusal(e))),
        (Ok(_), None) => return (from, not_asked(&crate::t!("doctor-no-endpoint"))),
    };
    let ec2 = match Ec2::with_keys(&endpoint, &region, Arc::clone(&keys), policy) {
        Ok(ec2) => ec2,
        Err(e) => return (from, not_asked(&refusal(&e))),
    };
    let instance = match settings.instance_id.clone() {
        Some(id) => Some(id),
        None => match settings
            .imds_endpoint
            .as_deref()
            .map(|e| Imds::new(e, policy))
        {
            Some(Ok(imds)) => imds.instance_id().await.ok(),
            _ => None,
        },
    };
    (from, ask_all(&ec2, instance.as_deref()).await)
}

fn not_asked(why: &str) -> Vec<(Act, Permission)> {
    Act::ALL
        .iter()
        .map(|a| {
            (
                *a,
                Permission::NotChecked(crate::t!("doctor-not-checked", why = why)),
            )
        })
        .collect()
}

/// A provider error as one line with its fix; never a secret (the chain's errors carry none).
fn refusal(e: &ProviderError) -> String {
    let (said, fix) = (e.shown(), e.shown_fix());
    // Many errors already end with their fix; it is said once.
    let line = if said.contains(fix.as_str()) {
        said
    } else {
        crate::t!("doctor-said-fix", said = said, fix = fix)
    };
    gpumeter_core::text::one_line(&line, 1000)
}

async fn ask_all(ec2: &Ec2, instance: Option<&str>) -> Vec<(Act, Permission)> {
    let by_instance = |id: &str| vec![("InstanceId.1".to_string(), id.to_string())];
    let read_params = instance.map(by_instance).unwrap_or_default();
    let read = ask(ec2, "DescribeInstances", read_params.clone()).await;
    let mut out = vec![(Act::Read, read.clone())];
    let Some(id) = instance else {
        let why = crate::t!(
            "doctor-not-checked",
            why = crate::t!("doctor-no-instance-id")
        );
        for act in [Act::Stop, Act::Release, Act::Delete] {
            out.push((act, Permission::NotChecked(why.clone())));
        }
        return out;
    };
    out.push((Act::Stop, ask(ec2, "StopInstances", by_instance(id)).await));
    out.push((
        Act::Release,
        ask(ec2, "TerminateInstances", by_instance(id)).await,
    ));
    // A volume of the instance's own, so the answer is about a real resource.
    let volume = match read {
        Permission::Allowed(_) => first_volume(ec2, read_params).await,
        _ => None,
    };
    let delete = match volume {
        Some(volume) => {
            let params = vec![("VolumeId".to_string(), volume)];
            ask(ec2, "DeleteVolume", params).await
        }
        None => Permission::NotChecked(crate::t!(
            "doctor-not-checked",
            why = crate::t!("doctor-no-volume")
        )),
    };
    out.push((Act::Delete, delete));
    out
}

/// The first volume attached to the instance, read for real (reading changes nothing).
async fn first_volume(ec2: &Ec2, params: Vec<(String, String)>) -> Option<String> {
    let body = ec2
        .call("DescribeInstances", &params, Repeat::Safe)
        .await
        .ok()?;
    let doc = roxmltree::Document::parse(&body).ok()?;
    doc.descendants()
        .find(|n| n.has_tag_name("volumeId"))
        .and_then(|n| n.text())
        .map(|id| gpumeter_core::text::one_line(id, 64))
}

/// `action` with `DryRun=true`: whether EC2 would have let the key do it.
async fn ask(ec2: &Ec2, action: &str, mut params: Vec<(String, String)>) -> Permission {
    params.push(("DryRun".into(), "true".into()));
    let how = crate::t!("doctor-asked-dry-run", action = action);
    match ec2.call(action, &params, Repeat::Safe).await {
        Ok(_) => Permission::Allowed(how),
        Err(e) if e.code() == Some(ALLOWED) => Permission::Allowed(how),
        Err(e) if e.code().is_some_and(|c| REFUSED.contains(&c)) => {
            let error = ProviderError::from(e);
            Permission::Denied(gpumeter_core::text::one_line(&error.shown_fix(), 300))
        }
        Err(Ec2Error::Credentials(e)) => {
            Permission::NotChecked(crate::t!("doctor-not-checked", why = refusal(&e)))
        }
        Err(e) => Permission::NotChecked(crate::t!(
            "doctor-not-checked",
            why = gpumeter_core::text::one_line(&ProviderError::from(e).to_string(), 300)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::refusal;
    use crate::i18n::{Lang, scoped};
    use crate::provider::ProviderError;

    #[test]
    fn a_refusal_is_one_line_with_its_fix_in_the_users_language() {
        let missing = ProviderError::missing("aws", "AWS_ACCESS_KEY_ID", &["AWS_PROFILE"]);
        let english = scoped(Lang::En, || refusal(&missing));
        assert!(english.contains("set AWS_ACCESS_KEY_ID"), "{english}");
        let chinese = scoped(Lang::ZhCn, || refusal(&missing));
        assert!(chinese.contains("请设置 AWS_ACCESS_KEY_ID"), "{chinese}");
        assert!(!chinese.contains("set AWS_ACCESS_KEY_ID"), "{chinese}");
    }
}
