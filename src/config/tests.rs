use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rust_decimal::dec;

use super::*;

const SAMPLE: &str = include_str!("../../config.sample.toml");

fn parse(src: &str) -> Result<Config, ConfigError> {
    Config::parse(src, Path::new("cfg/config.toml"))
}

fn invalid(src: &str) -> (usize, usize, Option<String>, String) {
    match parse(src) {
        Err(ConfigError::Invalid {
            line,
            column,
            key,
            message,
            ..
        }) => (line, column, key, message),
        other => panic!("expected an invalid-config error, got {other:?}"),
    }
}

/// A fresh directory of its own under the system temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumeter-config-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn empty_file_is_all_defaults() {
    let config = parse("").unwrap();
    assert_eq!(config, Config::default());
    assert_eq!(config.deadline.extend_step, Duration::from_secs(3600));
    assert_eq!(config.deadline.grace, Duration::from_secs(120));
    assert_eq!(config.deadline.on_expiry, OnExpiry::Alert);
    assert_eq!(config.telemetry.refresh, Duration::from_secs(1));
    assert_eq!(config.pricing.billing, BillingMode::OnDemand);
    assert!(!config.read_only);
    assert_eq!(config.deadline.release(), None);
}

#[test]
fn reads_every_section() {
    let config = parse(
        r#"
read_only = true
[instance]
provider = "alibaba"
id = "i-bp1"
region = "cn-hangzhou"
[pricing]
sheet = "alibaba-cn-hangzhou"
sku = "ecs.gn7i-c8g1.2xlarge"
billing = "spot"
[budget]
currency = "CNY"
per_instance = "99.90"
per_month = 2000
[deadline]
release_at = "18:30"
on_expiry = "release"
grace = "90s"
extend_step = "45m"
[ui]
theme = "light"
[telemetry]
refresh = "1500ms"
metered_interfaces = ["eth0", "eth1"]
cuda_required = "12.4"
"#,
    )
    .unwrap();
    assert!(config.read_only);
    assert_eq!(config.instance.provider, Some(ProviderKind::Alibaba));
    assert_eq!(config.instance.id.as_deref(), Some("i-bp1"));
    assert_eq!(
        config.pricing.sheet,
        Some(SheetRef::Bundled("alibaba-cn-hangzhou".into()))
    );
    assert_eq!(config.pricing.billing, BillingMode::Spot);
    assert_eq!(
        config.budget.instance_limit(Currency::USD),
        Some(Money::new(dec!(99.90), Currency::CNY))
    );
    assert_eq!(config.budget.per_month, Some(dec!(2000)));
    assert_eq!(
        config.deadline.release(),
        Some(Release::At(jiff::civil::time(18, 30, 0, 0)))
    );
    assert_eq!(config.deadline.on_expiry, OnExpiry::Release);
    assert_eq!(config.deadline.grace, Duration::from_secs(90));
    assert_eq!(config.deadline.extend_step, Duration::from_secs(45 * 60));
    assert_eq!(config.ui.theme.as_deref(), Some("light"));
    assert_eq!(config.telemetry.refresh, Duration::from_millis(1500));
    assert_eq!(config.telemetry.metered_interfaces, ["eth0", "eth1"]);
    assert_eq!(
        config.telemetry.cuda_required,
        Some(CudaVersion {
            major: 12,
            minor: 4
        })
    );
}

#[test]
fn budget_currency_falls_back_to_the_sheets() {
    let config = parse("[budget]\nper_month = \"400\"\n").unwrap();
    assert_eq!(
        config.budget.month_limit(Currency::USD),
        Some(Money::new(dec!(400), Currency::USD))
    );
    assert_eq!(config.budget.instance_limit(Currency::USD), None);
}

#[test]
fn durations_use_the_friendly_format() {
    for (text, secs) in [
        ("8h", 8 * 3600),
        ("90s", 90),
        ("45m", 2700),
        ("1h30m", 5400),
        ("3d", 3 * 86_400),
        ("2d12h", 60 * 3600),
    ] {
        assert_eq!(
            parse_duration(text),
            Ok(Duration::from_secs(secs)),
            "{text}"
        );
    }
    assert!(parse_duration("8x").is_err());
    assert!(parse_duration("-5m").is_err());
    assert!(parse_duration("-3d").is_err());
    assert!(parse_duration("1mo").is_err(), "a month is no fixed length");
    let config = parse("[idle]\non_idle = \"stop\"\nstopped_release_after = \"3d\"\n").unwrap();
    assert_eq!(
        config.idle.stopped_release_after,
        Some(Duration::from_secs(3 * 86_400))
    );
    assert!(parse("[idle]\nstopped_release_after = \"0s\"\n").is_err());
    let config = parse("[deadline]\nrelease_in = \"8h\"\n").unwrap();
    assert_eq!(
        config.deadline.release(),
        Some(Release::In(Duration::from_secs(8 * 3600)))
    );
}

#[test]
fn too_long_durations_are_too_large_not_malformed() {
    let largest = "the largest duration accepted is 87600h (10 years)";
    for text in [
        "99999999999h",
        "87601h",
        "99999999999999999999999h",
        "2562047788015216h",
        "PT99999999999999999999H",
        "1h 99999999999999999999s",
    ] {
        let err = parse_duration(text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("`{text}` is too large: {largest}"),
            "{text}"
        );
    }
    assert_eq!(parse_duration("87600h"), Ok(MAX_DURATION));
    assert_eq!(
        parse_duration("-99999999999999999999h")
            .unwrap_err()
            .to_string(),
        "`-99999999999999999999h` is negative: a duration must be 0 or more"
    );
    // Digits after the point are not shrunk: too many of them is not a size.
    assert!(
        parse_duration("1.1234567890123h")
            .unwrap_err()
            .to_string()
            .contains("not a duration")
    );
    assert!(
        parse_duration("8x")
            .unwrap_err()
            .to_string()
            .contains("not a duration")
    );

    let (line, column, key, message) = invalid("[deadline]\nrelease_in = \"99999999999h\"\n");
    assert_eq!((line, column), (2, 14));
    assert_eq!(key.as_deref(), Some("deadline.release_in"));
    assert!(
        message.contains("is too large") && message.contains("87600h"),
        "{message}"
    );
}

#[test]
fn idle_percentages_are_from_0_to_100() {
    let (line, column, key, message) = invalid("[idle]\ngpu_below_pct = 200\n");
    assert_eq!((line, column), (2, 17));
    assert_eq!(key.as_deref(), Some("idle.gpu_below_pct"));
    assert_eq!(
        message,
        "`200` is not a percentage: expected a number from 0 to 100"
    );
    let text = parse("[idle]\n\ncpu_below_pct = -1\n")
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("cfg/config.toml:3:17: idle.cpu_below_pct: `-1` is not a percentage"),
        "{text}"
    );
    assert!(parse("[idle]\ngpu_below_pct = nan\n").is_err());
    assert!(parse("[idle]\ngpu_below_pct = inf\n").is_err());
    let config = parse("[idle]\ngpu_below_pct = 0\ncpu_below_pct = 100\n").unwrap();
    assert_eq!(
        (config.idle.gpu_below_pct, config.idle.cpu_below_pct),
        (0.0, 100.0)
    );
    let config = parse("[idle]\ngpu_below_pct = 2.5\n").unwrap();
    assert!((config.idle.gpu_below_pct - 2.5).abs() < f64::EPSILON);
}

#[test]
fn a_budget_currency_unlike_the_sheets_is_refused() {
    // A bundled sheet's currency is known as the file is read.
    let (line, column, key, message) = invalid(
        "[pricing]\nsheet = \"alibaba-cn-hangzhou\"\n[budget]\ncurrency = \"USD\"\nper_month = 10\n",
    );
    assert_eq!((line, column), (4, 1));
    assert_eq!(key.as_deref(), Some("budget.currency"));
    assert!(
        message.contains("in USD") && message.contains("prices in CNY"),
        "{message}"
    );
    assert!(
        parse("[pricing]\nsheet = \"alibaba-cn-hangzhou\"\n[budget]\ncurrency = \"CNY\"\n").is_ok()
    );
    // Any other sheet's only when it is loaded: the check says where the currency is written.
    let config = parse("[budget]\nper_month = 10\n\ncurrency = \"EUR\"\n").unwrap();
    let usd = crate::pricing::bundled_sheet("aws-us-east-1").unwrap();
    assert_eq!(
        config.budget.check_currency(usd).unwrap_err().to_string(),
        "cfg/config.toml:4:1: budget.currency: the budget is in EUR but the price sheet \
         `aws-us-east-1` prices in USD; expected USD (or no currency, to take the sheet's)"
    );
    let same = parse("[budget]\ncurrency = \"USD\"\n").unwrap();
    assert_eq!(same.budget.check_currency(usd), Ok(()));
    assert_eq!(parse("").unwrap().budget.check_currency(usd), Ok(()));
}

#[test]
fn unknown_key_names_file_line_column_and_key() {
    let err = parse("[deadline]\non_expiry = \"stop\"\nreleas_in = \"8h\"\n").unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("cfg/config.toml:3:1: deadline.releas_in: unknown field `releas_in`"),
        "{text}"
    );
}

#[test]
fn unknown_section_is_an_error() {
    let (line, column, key, message) = invalid("read_only = false\n[webhooks]\nurl = \"x\"\n");
    assert_eq!((line, column), (2, 2));
    assert_eq!(key.as_deref(), Some("webhooks"));
    assert!(message.contains("unknown field `webhooks`"), "{message}");
}

#[test]
fn bad_values_point_at_the_value() {
    let (line, column, key, message) = invalid("[deadline]\nrelease_in = \"8x\"\n");
    assert_eq!((line, column), (2, 14));
    assert_eq!(key.as_deref(), Some("deadline.release_in"));
    assert!(message.contains("`8x` is not a duration"), "{message}");

    let (_, _, key, message) = invalid("[pricing]\nbilling = \"weekly\"\n");
    assert_eq!(key.as_deref(), Some("pricing.billing"));
    assert!(message.contains("weekly"), "{message}");

    let (_, _, key, _) = invalid("[instance]\nprovider = \"gcp\"\n");
    assert_eq!(key.as_deref(), Some("instance.provider"));

    let (_, _, key, _) = invalid("[telemetry]\ncuda_required = \"twelve\"\n");
    assert_eq!(key.as_deref(), Some("telemetry.cuda_required"));

    let (_, _, key, _) = invalid("[deadline]\nrelease_at = \"25:00\"\n");
    assert_eq!(key.as_deref(), Some("deadline.release_at"));

    let (_, _, key, _) = invalid("[budget]\ncurrency = \"usd\"\n");
    assert_eq!(key.as_deref(), Some("budget.currency"));

    let (line, column, key, message) =
        invalid("[budget]\nper_instance = 10\non_budget = \"halt\"\n");
    assert_eq!((line, column), (3, 13));
    assert_eq!(key.as_deref(), Some("budget.on_budget"));
    assert!(message.contains("halt"), "{message}");
}

#[test]
fn on_budget_is_alert_unless_set() {
    assert_eq!(parse("").unwrap().budget.on_budget, OnExpiry::Alert);
    let config = parse("[budget]\nper_instance = 10\non_budget = \"release\"\n").unwrap();
    assert_eq!(config.budget.on_budget, OnExpiry::Release);
}

#[test]
fn money_is_never_a_float_and_never_negative_or_zero() {
    let (line, column, key, message) = invalid("[budget]\nper_instance = 12.5\n");
    assert_eq!((line, column), (2, 16));
    assert_eq!(key.as_deref(), Some("budget.per_instance"));
    assert!(message.contains("not floats"), "{message}");
    assert!(parse("[budget]\nper_month = \"-3\"\n").is_err());
    assert!(parse("[budget]\nper_month = 0\n").is_err());
    assert!(parse("[budget]\nper_month = \"ten\"\n").is_err());
}

#[test]
fn zero_steps_and_too_fast_refresh_are_refused() {
    let (_, _, key, _) = invalid("[deadline]\nextend_step = \"0s\"\n");
    assert_eq!(key.as_deref(), Some("deadline.extend_step"));
    let (line, column, key, _) = invalid("[telemetry]\nrefresh = \"10ms\"\n");
    assert_eq!(
        (line, column, key.as_deref()),
        (2, 1, Some("telemetry.refresh"))
    );
    assert_eq!(
        parse("[deadline]\ngrace = \"0s\"\n")
            .unwrap()
            .deadline
            .grace,
        Duration::ZERO
    );
}

#[test]
fn release_in_and_release_at_exclude_each_other() {
    let (line, column, key, _) =
        invalid("[deadline]\nrelease_in = \"8h\"\nrelease_at = \"18:30\"\n");
    assert_eq!((line, column), (3, 1));
    assert_eq!(key.as_deref(), Some("deadline.release_at"));
}

#[test]
fn relative_files_are_taken_from_the_config_directory() {
    let config =
        parse("[pricing]\nsheet = \"sheets/mine.toml\"\n[ui]\ntheme = \"t.toml\"\n").unwrap();
    assert_eq!(
        config.pricing.sheet,
        Some(SheetRef::File(Path::new("cfg").join("sheets/mine.toml")))
    );
    assert_eq!(
        config.ui.theme,
        Some(Path::new("cfg").join("t.toml").display().to_string())
    );
    let named = parse("[ui]\ntheme = \"high-contrast\"\n").unwrap();
    assert_eq!(named.ui.theme.as_deref(), Some("high-contrast"));
}

#[test]
fn missing_default_file_is_normal_but_missing_explicit_file_is_not() {
    let dir = temp_dir("missing");
    let path = dir.join("config.toml");
    assert!(Config::from_file_if_exists(&path).unwrap().is_none());
    let err = Config::load(Some(&path)).unwrap_err();
    assert!(matches!(err, ConfigError::Read { .. }), "{err:?}");
    assert!(err.to_string().contains("config.toml"), "{err}");
}

#[test]
fn loads_an_explicit_file() {
    let dir = temp_dir("explicit");
    let path = dir.join("config.toml");
    std::fs::write(&path, "[instance]\nprovider = \"demo\"\n").unwrap();
    let (config, from) = Config::load(Some(&path)).unwrap();
    assert_eq!(config.instance.provider, Some(ProviderKind::Demo));
    assert_eq!(from, Some(path));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cuda_versions_compare_numerically() {
    let v = |s: &str| s.parse::<CudaVersion>().unwrap();
    assert!(v("12.10") > v("12.4"));
    assert_eq!(
        v("12"),
        CudaVersion {
            major: 12,
            minor: 0
        }
    );
    assert_eq!(v("11.8").to_string(), "11.8");
    assert!("12.x".parse::<CudaVersion>().is_err());
}

/// The sample with every `# key = value` line uncommented.
fn sample_uncommented() -> String {
    SAMPLE
        .lines()
        .map(|line| {
            let body = line.strip_prefix("# ").unwrap_or(line);
            let is_setting = body.split_once(" = ").is_some_and(|(k, _)| {
                !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            });
            if is_setting { body } else { line }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The schema's keys, read from serde itself: a probe key in a `deny_unknown_fields` table
/// makes serde list that table's fields, and a probe inside a field tells tables from values.
/// This way a new field cannot be forgotten by the test as well as by the sample.
fn schema_keys(prefix: &str, out: &mut BTreeSet<String>) {
    let header = if prefix.is_empty() {
        String::new()
    } else {
        format!("[{prefix}]\n")
    };
    let err = toml::from_str::<Config>(&format!("{header}__probe__ = 0\n")).unwrap_err();
    let message = err.message();
    assert!(
        message.starts_with("unknown field `__probe__`"),
        "{message}"
    );
    let expected = message.split_once("expected").unwrap().1;
    for field in expected.split('`').skip(1).step_by(2) {
        let path = if prefix.is_empty() {
            field.to_string()
        } else {
            format!("{prefix}.{field}")
        };
        let nested = toml::from_str::<Config>(&format!("[{path}]\n__probe__ = 0\n")).unwrap_err();
        if nested.message().starts_with("unknown field `__probe__`") {
            schema_keys(&path, out);
        } else {
            out.insert(path);
        }
    }
}

fn table_keys(table: &toml::Table, prefix: &str, out: &mut BTreeSet<String>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(inner) => table_keys(inner, &path, out),
            _ => {
                out.insert(path);
            }
        }
    }
}

#[test]
fn sample_parses_as_shipped_and_uncommented() {
    assert_eq!(parse(SAMPLE).unwrap(), Config::default());
    let full = sample_uncommented();
    // Both deadline forms are shown; as a whole file they would exclude each other.
    let one_deadline: String = full
        .lines()
        .filter(|l| !l.starts_with("release_at"))
        .collect::<Vec<_>>()
        .join("\n");
    let config = parse(&one_deadline).unwrap();
    assert_eq!(config.instance.provider, Some(ProviderKind::Aws));
    assert_eq!(config.deadline.extend_step, DEFAULT_EXTEND_STEP);
    toml::from_str::<Config>(&full).unwrap();
}

#[test]
fn sample_mentions_every_key() {
    let mut schema = BTreeSet::new();
    schema_keys("", &mut schema);
    assert!(schema.contains("deadline.release_in"), "{schema:?}");
    assert!(schema.len() > 15, "{schema:?}");
    let table: toml::Table = toml::from_str(&sample_uncommented()).unwrap();
    let mut sample = BTreeSet::new();
    table_keys(&table, "", &mut sample);
    assert_eq!(schema, sample, "config.sample.toml and Config disagree");
}

#[test]
fn a_provider_kind_is_named_as_the_config_file_names_it() {
    for kind in ProviderKind::ALL {
        let config = parse(&format!("[instance]\nprovider = \"{}\"\n", kind.id())).unwrap();
        assert_eq!(config.instance.provider, Some(kind));
    }
}

#[test]
fn an_unknown_provider_is_refused_with_every_id() {
    let e = parse("[instance]\nprovider = \"azure\"\n").unwrap_err();
    let text = format!("{e:#}");
    assert!(
        text.contains("`azure` is not one of aws, alibaba"),
        "{text}"
    );
    assert!(text.contains("command, demo"), "{text}");
}

#[test]
fn licences_and_a_fixed_plans_mbps_are_instance_keys() {
    let config = parse("[instance]\nlicenses = 0\nbandwidth_mbps = \"2.5\"\n").unwrap();
    assert_eq!(config.instance.licenses, Some(0));
    assert_eq!(config.instance.bandwidth_mbps, Some(dec!(2.5)));
    assert_eq!(parse("").unwrap().instance.licenses, None);
    let (_, _, _, message) = invalid("[instance]\nbandwidth_mbps = 0\n");
    assert!(message.contains("more than zero"), "{message}");
}

#[test]
fn a_fleet_account_names_no_instances_and_its_variables_hold_no_secret() {
    let config = parse(
        "[[fleet]]\nprovider = \"alibaba\"\naccount = \"research\"\n\
         env = { ALIBABA_CLOUD_PROFILE = \"research\" }\n",
    )
    .unwrap();
    assert!(config.fleet[0].discovers());
    assert_eq!(config.fleet[0].env["ALIBABA_CLOUD_PROFILE"], "research");
    let (line, column, _, message) =
        invalid("[[fleet]]\nprovider = \"aws\"\nenv = { AWS_SECRET_ACCESS_KEY = \"x\" }\n");
    assert_eq!((line, column), (3, 7), "{message}");
    assert!(
        message.contains("AWS_SECRET_ACCESS_KEY holds a credential"),
        "{message}"
    );
    assert!(!message.contains("\"x\""), "{message}");
}

#[test]
fn timezone_is_an_iana_name_checked_when_read() {
    let config = parse("timezone = \"Asia/Shanghai\"\n").unwrap();
    let zone = config.timezone.expect("set");
    assert_eq!(zone.name, "Asia/Shanghai");
    assert_eq!(zone.tz.iana_name(), Some("Asia/Shanghai"));
    assert_eq!(parse("").unwrap().timezone, None);
}

#[test]
fn an_unknown_timezone_names_its_line_column_and_where_names_are_listed() {
    let (line, column, key, message) = invalid("read_only = false\ntimezone = \"Asia/Shangai\"\n");
    assert_eq!((line, column), (2, 12));
    assert_eq!(key.as_deref(), Some("timezone"));
    assert!(
        message.contains("`Asia/Shangai` is not a time zone"),
        "{message}"
    );
    assert!(message.contains("timedatectl list-timezones"), "{message}");
    // A clock time or an offset is not a zone name either.
    let (_, _, _, message) = invalid("timezone = \"+08:00\"\n");
    assert!(message.contains("expected an IANA name"), "{message}");
}

#[test]
fn the_setting_wins_over_tz_and_tz_over_the_system() {
    use gpumeter_core::zone::ZoneSource;
    let setting = parse("timezone = \"Asia/Shanghai\"\n")
        .unwrap()
        .timezone
        .unwrap();
    let tz = std::ffi::OsStr::new("America/New_York");
    let chosen = zone::resolve(Some(&setting), Some(tz));
    assert_eq!(chosen.source, ZoneSource::Setting);
    assert_eq!(chosen.tz.iana_name(), Some("Asia/Shanghai"));
    let unset = zone::resolve(None, None);
    assert_eq!(unset.source, ZoneSource::System);
    let from_tz = |value: &str| zone::resolve(None, Some(std::ffi::OsStr::new(value)));
    for value in [
        "Asia/Shanghai",
        ":Asia/Shanghai",
        "/usr/share/zoneinfo/Asia/Shanghai",
    ] {
        let got = from_tz(value);
        assert_eq!(got.source, ZoneSource::Env, "{value}");
        assert_eq!(got.tz.iana_name(), Some("Asia/Shanghai"), "{value}");
    }
    let posix = from_tz("CST-8");
    assert_eq!(posix.source, ZoneSource::Env);
    let noon = jiff::Timestamp::from_second(1_800_000_000).unwrap();
    assert_eq!(posix.tz.to_offset(noon), jiff::tz::offset(8));
    assert_eq!(from_tz("").tz, jiff::tz::TimeZone::UTC);
    let nonsense = from_tz("Foo/Bar");
    assert_eq!(nonsense.source, ZoneSource::EnvNotUnderstood);
    assert!(
        nonsense
            .describe()
            .starts_with("UTC (from TZ, which names no zone")
    );
}

#[test]
fn the_balance_floor_is_exact_and_stops_unless_told_otherwise() {
    let config = parse("[budget]\nbalance_floor = \"5.00\"\n").unwrap();
    assert_eq!(
        config.budget.balance_floor(Currency::CNY),
        Some(Money::new(dec!(5.00), Currency::CNY))
    );
    assert_eq!(config.budget.on_balance, OnExpiry::Stop);
    assert_eq!(parse("").unwrap().budget.balance_floor(Currency::CNY), None);
    let alert = parse("[budget]\nbalance_floor = 5\non_balance = \"alert\"\n").unwrap();
    assert_eq!(alert.budget.on_balance, OnExpiry::Alert);
    let (_, _, key, _) = invalid("[budget]\nbalance_floor = 5.5\n");
    assert_eq!(key.as_deref(), Some("budget.balance_floor"));
}

#[test]
fn intranet_ranges_parse_and_a_bad_one_is_named_where_it_stands() {
    let config = parse("[telemetry]\nintranet = [\"52.219.0.0/20\", \"fd00::/8\"]\n").unwrap();
    assert_eq!(config.telemetry.intranet.len(), 2);
    let (line, column, key, message) = invalid("[telemetry]\nintranet = [\"52.219.0.0/40\"]\n");
    assert_eq!((line, column), (2, 13), "{message}");
    assert_eq!(key.as_deref(), Some("telemetry.intranet"));
    assert!(message.contains("invalid IP address"), "{message}");
}
