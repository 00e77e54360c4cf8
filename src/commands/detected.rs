//! Where this machine runs, as `doctor` and `init` see it: the one place that builds a
//! [`Detected`] for them. The flags (`--provider`, `--instance`, `--region`) come first, then
//! `[instance]` and `[pricing] sku` in the config, then what the machine says about itself
//! (DMI, PID 1's environment, the metadata service), asked only when neither names a provider,
//! as the commands' context asks it.

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
    let named = Detected {
        provider,
        instance: first(target.instance, config.instance.id.clone()),
        region: first(target.region, config.instance.region.clone()),
        instance_type: first(None, config.pricing.sku.clone()),
        problems: Vec::new(),
    };
    if named.provider.is_some() {
        return named;
    }
    with_machine(named, super::context::detected::detected_here())
}

/// `named` with what it leaves empty taken from what the machine says: the instance type only
/// where the instance is the machine's own.
fn with_machine(named: Detected, machine: Detected) -> Detected {
    let own = named.instance.as_ref().is_none_or(|i| {
        machine
            .instance
            .as_ref()
            .is_some_and(|m| m.value == i.value)
    });
    Detected {
        provider: machine.provider,
        instance: named.instance.or(machine.instance),
        region: named.region.or(machine.region),
        instance_type: named
            .instance_type
            .or(machine.instance_type.filter(|_| own)),
        problems: machine.problems,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[expect(
        clippy::unnecessary_wraps,
        reason = "the tests build Detected fields, which are Options"
    )]
    fn at<T>(value: T, from: &str) -> Option<Found<T>> {
        Some(found(value, from))
    }

    #[test]
    fn the_flags_win_over_the_machine_and_another_instance_takes_no_type_from_it() {
        let machine = Detected {
            provider: at(ProviderKind::Aws, "DMI sys_vendor \"Amazon EC2\""),
            instance: at("i-0own".to_string(), "IMDSv2"),
            region: at("us-east-1".to_string(), "IMDSv2"),
            instance_type: at("p4d.24xlarge".to_string(), "IMDSv2"),
            problems: vec![],
        };
        let own = with_machine(Detected::default(), machine.clone());
        assert_eq!(own, machine);
        let other = Detected {
            instance: at("i-0other".to_string(), "flag"),
            region: at("us-west-2".to_string(), "flag"),
            ..Detected::default()
        };
        let mixed = with_machine(other, machine);
        assert_eq!(mixed.instance, at("i-0other".to_string(), "flag"));
        assert_eq!(mixed.region, at("us-west-2".to_string(), "flag"));
        assert_eq!(mixed.provider.map(|f| f.value), Some(ProviderKind::Aws));
        assert_eq!(
            mixed.instance_type, None,
            "another instance's type is not this one's"
        );
    }
}
