//! Where this machine runs, as `doctor` and `init` see it: the one place that builds a
//! [`Detected`] for them. The flags (`--provider`, `--instance`, `--region`) come first, then
//! `[instance]` and `[pricing] sku` in the config.

use crate::cli::Cli;
use crate::config::{Config, ProviderKind};
use crate::detect::{Detected, Found};

/// What is known of this machine's provider, instance, region and instance type, each with
/// where it came from.
pub fn detected_here(cli: &Cli, config: &Config) -> Detected {
    let target = cli.target();
    let provider = if cli.demo {
        Some(found(ProviderKind::Demo, "flag"))
    } else {
        first(target.cloud, config.instance.provider)
    };
    Detected {
        provider,
        instance: first(target.instance, config.instance.id.clone()),
        region: first(target.region, config.instance.region.clone()),
        instance_type: first(None, config.pricing.sku.clone()),
        problems: Vec::new(),
    }
}

fn found<T>(value: T, from: &str) -> Found<T> {
    Found {
        value,
        from: from.to_string(),
    }
}

/// The flag's value, else the config's.
fn first<T>(flag: Option<T>, configured: Option<T>) -> Option<Found<T>> {
    flag.map(|v| found(v, "flag"))
        .or_else(|| configured.map(|v| found(v, "config")))
}
