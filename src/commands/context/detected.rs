//! Detection where the context is built: what the machine says about itself fills what neither
//! flags nor config name, and stands in for the provider's adapter while no credentials let
//! gpumeter build one.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use jiff::Timestamp;

use super::Context;
use crate::commands::{Failure, block_on};
use crate::config::{InstanceConfig, ProviderKind};
use crate::detect::only::{DetectedOnly, boot_time};
use crate::detect::{Detected, Seams, detect};
use crate::provider::Provider;
use crate::provider::aws::credentials::IMDS_DISABLED;

/// Asked once a process: the cockpit builds more than one context.
static DETECTED: OnceLock<Detected> = OnceLock::new();

/// What this machine says about itself, through the seams the process's variables name.
pub(crate) fn detected_here() -> Detected {
    DETECTED
        .get_or_init(|| {
            let seams = Seams::from_env();
            // On a thread of its own: a context may be built inside a runtime.
            std::thread::scope(|s| {
                s.spawn(|| block_on(detect(&seams)).unwrap_or_default())
                    .join()
                    .unwrap_or_default()
            })
        })
        .clone()
}

/// `instance` with what it leaves unnamed taken from `detected`: flags and config win.
pub(super) fn fill_from(instance: &mut InstanceConfig, detected: &Detected) {
    let value =
        |found: &Option<crate::detect::Found<String>>| found.as_ref().map(|f| f.value.clone());
    instance.provider = instance
        .provider
        .or(detected.provider.as_ref().map(|f| f.value));
    if instance.id.is_none() {
        instance.id = value(&detected.instance);
    }
    if instance.region.is_none() {
        instance.region = value(&detected.region);
    }
}

/// Variables for the adapters that keep them from asking again a metadata service that did
/// not answer detection: the AWS chain would wait on it for credentials, region and instance.
pub(super) fn unanswered(detected: &Detected) -> BTreeMap<String, String> {
    let aws = detected
        .provider
        .as_ref()
        .is_some_and(|f| f.value == ProviderKind::Aws);
    let mut env = BTreeMap::new();
    if aws && !detected.problems.is_empty() {
        env.insert(IMDS_DISABLED.to_string(), "true".to_string());
    }
    env
}

/// The detected instance in place of the adapter `why` says could not be built; `None` when
/// detection named no instance.
pub(super) fn stand_in(ctx: &Context, why: &Failure) -> Option<Arc<dyn Provider>> {
    let detected = &ctx.detected;
    let kind = detected.provider.as_ref()?.value;
    let id = ctx.config.instance.id.clone()?;
    // The detected type is this machine's: it prices another instance named by flags not at all.
    let own = detected.instance.as_ref().is_some_and(|f| f.value == id);
    let sku = detected
        .instance_type
        .as_ref()
        .filter(|_| own)
        .map(|f| f.value.clone());
    let since = boot_time().unwrap_or_else(Timestamp::now);
    let region = ctx.config.instance.region.clone();
    let needs = needs(kind, why);
    Some(Arc::new(DetectedOnly::new(
        kind, id, region, sku, since, needs,
    )))
}

/// Which credentials the adapter needs and where it looked, in one line.
fn needs(kind: ProviderKind, why: &Failure) -> String {
    let ways = credential_ways(kind);
    let give = match ways.as_slice() {
        [] => crate::t!("context-configure-provider").into_owned(),
        [one] => one.clone(),
        [init @ .., last] => {
            let init = init.join(&crate::t!("err-list-sep"));
            if ways.len() > 2 {
                crate::t!("context-ways-or-many", init = init, last = last.as_str())
            } else {
                crate::t!("context-ways-or", init = init, last = last.as_str())
            }
        }
    };
    crate::t!(
        "context-detected-needs",
        provider = kind.id(),
        give = give,
        why = gpumeter_core::text::one_line(&why.message, 300)
    )
}

/// The kind's ways to give a credential, in the user's language: `cred-way-<kind>-<n>`, 1 the
/// first the chain tries; English is the core's own list.
fn credential_ways(kind: ProviderKind) -> Vec<String> {
    kind.credential_chain()
        .iter()
        .enumerate()
        .map(|(i, english)| {
            crate::i18n::lookup_named(&format!("cred-way-{}-{}", kind.id(), i + 1))
                .unwrap_or_else(|| (*english).to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_need_lists_the_kinds_credential_chain_as_one_sentence() {
        let why = Failure::failed("no key");
        let aws = needs(ProviderKind::Aws, &why);
        assert!(
            aws.contains(
                "need aws credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, name a \
                 profile with AWS_PROFILE, or attach an instance role (no key)"
            ),
            "{aws}"
        );
        let vast = needs(ProviderKind::Vast, &why);
        assert!(
            vast.contains(": set VAST_API_KEY or CONTAINER_API_KEY inside the instance ("),
            "{vast}"
        );
        let lambda = needs(ProviderKind::Lambda, &why);
        assert!(lambda.contains(": set LAMBDA_API_KEY ("), "{lambda}");
        let demo = needs(ProviderKind::Demo, &why);
        assert!(demo.contains(": configure the provider ("), "{demo}");
    }

    #[test]
    fn every_way_to_give_a_credential_is_in_both_languages_and_english_is_the_cores() {
        use crate::i18n::{Lang, has, scoped};
        for kind in ProviderKind::ALL {
            for i in 0..kind.credential_chain().len() {
                let id = format!("cred-way-{}-{}", kind.id(), i + 1);
                assert!(has(Lang::En, &id) && has(Lang::ZhCn, &id), "{id}");
            }
            assert_eq!(
                scoped(Lang::En, || credential_ways(kind)),
                kind.credential_chain()
            );
        }
        let why = Failure::failed("no key");
        let chinese = scoped(Lang::ZhCn, || needs(ProviderKind::Alibaba, &why));
        assert!(chinese.contains("配置 aliyun CLI"), "{chinese}");
        assert!(chinese.contains("no key"), "{chinese}");
    }
}
