//! `doctor`, `verify` and `init` in Simplified Chinese, as a user runs them: the Chinese words
//! are there, verify's table lines up by display width, no English word of their own text is
//! left, English reads as before and `--json` is the same in both languages.

use unicode_width::UnicodeWidthStr as _;

use super::actions_cli::{Cloud, stdout};
use super::plan_chinese::{C, CHINESE, column_of, english_left, ok};

/// `text` without what a user types as it is: flags, config keys (`[pricing] sku`), commands
/// in backquotes and the commands gpumeter names.
fn without_what_is_typed(text: &str) -> String {
    let mut out = Vec::new();
    let mut words = text.split(' ').peekable();
    while let Some(word) = words.next() {
        if word.starts_with("--") || word.starts_with('`') || word.ends_with('`') {
            continue;
        }
        if word.starts_with('[') {
            words.next();
            continue;
        }
        out.push(word);
    }
    out.join(" ")
        .replace("gpumeter watchdog", "")
        .replace("gpumeter init", "")
}

fn with_env<'a>(cloud: &'a Cloud, lang: &'a [(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut env = lang.to_vec();
    env.push(("XDG_CONFIG_HOME", cloud.path().to_str().unwrap()));
    env.push(("HOME", cloud.path().to_str().unwrap()));
    env.push(("AWS_EC2_METADATA_DISABLED", "true"));
    env
}

#[test]
fn doctor_in_chinese_and_its_json_in_english() {
    let cloud = Cloud::new("setup-doctor");
    let chinese = stdout(&cloud.run(&["doctor"], &with_env(&cloud, CHINESE)));
    for words in [
        "✓ 策略 — 截止时间 未设置",
        "✓ 云服务商 — demo（来自 命令行参数）",
        "✓ 凭据 — 演示云不需要凭据",
        "✗ 实例 — 未检测到",
        "看门狗服务",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    // NVML's and the system's own words stay as they said them.
    let own: String = chinese
        .lines()
        .filter(|l| !l.starts_with("✗ NVML") && !l.starts_with("✓ NVML") && !l.contains("时区"))
        .map(without_what_is_typed)
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        english_left(&own, "setup", &["doctor-"]),
        Vec::<String>::new(),
        "{own}"
    );
    let english = stdout(&cloud.run(&["doctor"], &with_env(&cloud, C)));
    assert!(
        english.contains("\n✓ credentials — the demo cloud needs none\n"),
        "{english}"
    );
    assert!(
        english.starts_with("✓ policy — deadline none set, at zero alert"),
        "{english}"
    );
    let json = |lang| stdout(&cloud.run(&["doctor", "--json"], &with_env(&cloud, lang)));
    let english_json = json(C);
    assert!(
        english_json.contains("\"what\":\"credentials\""),
        "{english_json}"
    );
    assert_eq!(json(CHINESE), english_json);
    // A cloud with no dry run: why the key's permissions went unasked, in either language,
    // and the JSON in English.
    let lambda = |lang, extra: &[&'static str]| {
        let mut args = vec!["--provider", "lambda", "doctor"];
        args.extend(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpumeter"))
            .args(&args)
            .envs(with_env(&cloud, lang))
            .env("GPUMETER_DATA_DIR", cloud.path())
            .env_remove("LAMBDA_API_KEY")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        stdout(&out)
    };
    let chinese = lambda(CHINESE, &[]);
    assert!(
        chinese.contains("\n– 可释放 — 未检查：lambda 不支持试运行"),
        "{chinese}"
    );
    let english = lambda(C, &[]);
    assert!(
        english.contains("\n– may release — not checked: lambda has no dry run\n"),
        "{english}"
    );
    assert_eq!(lambda(CHINESE, &["--json"]), lambda(C, &["--json"]));
}

#[test]
fn verify_in_chinese_lines_up_and_keeps_its_json() {
    let cloud = Cloud::new("setup-verify");
    let args = ["verify", "--scenario", "throttled"];
    let chinese = stdout(&cloud.run(&args, CHINESE));
    for words in [
        "verify：失败：",
        "检查项",
        "实测",
        "额定",
        "结论",
        "通过",
        "警告",
    ] {
        assert!(chinese.contains(words), "{words} in {chinese}");
    }
    let english = stdout(&cloud.run(&args, C));
    assert!(english.starts_with("verify: FAIL: "), "{english}");
    assert!(english.contains("\nGPU  CHECK "), "{english}");
    // The table: its heading and rows, whose columns start where the heading's do.
    let lines: Vec<&str> = chinese.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("GPU  检查项"))
        .unwrap();
    let heading = lines[top];
    let verdicts = column_of(heading, "结论");
    let rows: Vec<&str> = lines[top + 1..]
        .iter()
        .copied()
        .take_while(|l| l.starts_with("0 "))
        .collect();
    assert!(rows.len() > 10, "{chinese}");
    for row in &rows {
        let verdict = row.rsplit(' ').next().unwrap();
        assert_eq!(row.width() - verdict.width(), verdicts, "{heading}\n{row}");
    }
    let table = std::iter::once(heading)
        .chain(rows)
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        english_left(&table, "setup", &["verify-verdict", "verify-col"]),
        Vec::<String>::new(),
        "{table}"
    );
    let mut json = args.to_vec();
    json.push("--json");
    let first = stdout(&cloud.run(&json, C));
    assert!(first.contains("\"verdict\": \"fail\""), "{first}");
    assert_eq!(stdout(&cloud.run(&json, CHINESE)), first);
    // --on-fail: what it did, in Chinese on the terminal and in English in the JSON.
    let mut alert = args.to_vec();
    alert.extend(["--on-fail", "alert"]);
    let said = stdout(&cloud.run(&alert, &with_env(&cloud, CHINESE)));
    assert!(
        said.ends_with("\n提醒：已输出到 stderr；未配置 webhook（[notify]）\n"),
        "{said}"
    );
    alert.push("--json");
    let first = stdout(&cloud.run(&alert, &with_env(&cloud, C)));
    assert!(
        first.contains("alert: on stderr; no webhook is configured"),
        "{first}"
    );
    assert_eq!(
        stdout(&cloud.run(&alert, &with_env(&cloud, CHINESE))),
        first
    );
}

#[test]
fn init_says_what_it_wrote_in_chinese() {
    let cloud = Cloud::new("setup-init");
    let config = cloud.path().join("zh.toml");
    let config = config.to_str().unwrap();
    let args = ["init", "--deadline", "4h", "--config", config];
    let chinese = ok(&cloud.run(&args, &with_env(&cloud, CHINESE)));
    assert_eq!(
        chinese,
        format!("已写入 {config}（权限 0600）\n下一步：gpumeter doctor，然后 gpumeter\n")
    );
    let english_config = cloud.path().join("en.toml");
    let english_config = english_config.to_str().unwrap();
    let args = ["init", "--deadline", "4h", "--config", english_config];
    let english = ok(&cloud.run(&args, &with_env(&cloud, C)));
    assert_eq!(
        english,
        format!("wrote {english_config} (mode 0600)\nnext: gpumeter doctor, then gpumeter\n")
    );
    // The comments are in the user's language; every key and value is the same in both.
    let (zh, en) = (
        std::fs::read_to_string(config).unwrap(),
        std::fs::read_to_string(english_config).unwrap(),
    );
    let settings = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(settings(&zh), settings(&en));
    assert!(
        zh.contains("# 截止时间：驾驶舱或看门狗启动后过这么久。\nrelease_in = \"4h\""),
        "{zh}"
    );
}
