use clap::CommandFactory as _;

use super::lines;
use crate::cli::Cli;
use crate::i18n::{Lang, scoped};

/// The two lines gpumeter prints for `args` (after `gpumeter`), in `lang`: the tree is the
/// program's own, localized as `main` localizes it.
fn refused(lang: Lang, args: &[&str]) -> Vec<String> {
    scoped(lang, || {
        let line = std::iter::once("gpumeter").chain(args.iter().copied());
        let error = crate::cli::localized(Cli::command())
            .try_get_matches_from(line)
            .expect_err("clap refuses it");
        lines(&error)
    })
}

#[test]
fn english_keeps_claps_sentences_with_the_tip_and_the_usage_on_two_lines() {
    assert_eq!(
        refused(Lang::En, &["checklist", "--jsn"]),
        [
            "gpumeter: unexpected argument '--jsn' found; a similar argument exists: '--json'",
            "gpumeter: usage: gpumeter checklist --json (more with --help)",
        ]
    );
    let missing = refused(Lang::En, &["estimate"]);
    assert_eq!(
        missing[0],
        "gpumeter: the following required arguments were not provided: \
         --hours-per-day <HOURS_PER_DAY>, --days <DAYS>"
    );
    assert_eq!(missing.len(), 2);
    assert_eq!(
        refused(Lang::En, &["release", "--yes", "--yes"])[0],
        "gpumeter: the argument '--yes' cannot be used multiple times"
    );
}

#[test]
fn each_kind_of_refusal_reads_in_chinese_and_keeps_what_the_user_typed() {
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["checklist", "--jsn"],
            "未知参数 '--jsn'",
            "相近的参数：'--json'",
        ),
        (&["stauts"], "未知子命令 'stauts'", "'status'"),
        (&["estimate"], "缺少必需的参数", "--days <DAYS>"),
        (&["release", "--yes", "--yes"], "不能重复使用", "'--yes'"),
        (
            &["estimate", "--hours-per-day", "abc", "--days", "3"],
            "的值 'abc' 无效",
            "应为小数",
        ),
    ];
    for (args, says, keeps) in cases {
        let out = refused(Lang::ZhCn, args);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("gpumeter: "), "{out:?}");
        assert!(out[0].contains(says), "{args:?}: {out:?}");
        assert!(out[0].contains(keeps), "{args:?}: {out:?}");
        assert!(
            !out[0].contains("argument") && !out[0].contains("found"),
            "English left in {out:?}"
        );
        // A value's parser leaves no usage with clap: the line then points to --help alone.
        let usage_or_help =
            out[1].starts_with("gpumeter: 用法：") || out[1] == "gpumeter: 更多信息见 --help";
        assert!(usage_or_help, "{out:?}");
    }
}

#[test]
fn a_refused_value_says_why_in_the_users_language() {
    let en = refused(Lang::En, &["--provider", "azure", "status"]);
    assert!(
        en[0].contains("invalid value 'azure' for '--provider")
            && en[0].contains("`azure` is not one of aws"),
        "{en:?}"
    );
    let zh = refused(Lang::ZhCn, &["--provider", "azure", "status"]);
    assert!(zh[0].contains("`azure` 不是以下之一：aws"), "{zh:?}");
    let whole = refused(Lang::ZhCn, &["snapshot-clean", "--keep", "two"]);
    assert!(whole[0].contains("应为整数"), "{whole:?}");
}

#[test]
fn claps_tips_are_rebuilt_from_their_parts() {
    assert_eq!(
        super::tip_words("to pass '--x' as a value, use '-- --x'"),
        "to pass '--x' as a value, use '-- --x'"
    );
    let zh = scoped(Lang::ZhCn, || {
        super::tip_words("subcommand 'status' exists; to use it, remove the '--' before it")
    });
    assert_eq!(zh, "子命令 'status' 存在；若要使用它，请去掉它前面的 '--'");
    assert_eq!(super::tip_words("something new"), "something new");
}
