//! `estimate` on spot with no checkpoint: each reclaim starts the job over. A week-long job
//! on a sheet that says how often spot is reclaimed is warned and priced with its reruns; the
//! figures are checked against the restart formula computed here in floating point.

use serde_json::Value;

use super::sheet_run::{on_sheet, sheet, text_on_sheet};

/// A sheet of one SKU: 6 USD an hour on demand, 2 on spot, reclaimed once a day on average.
fn spotty() -> std::path::PathBuf {
    sheet(
        "spotty",
        "id = \"spotty\"\nprovider = \"demo\"\ncurrency = \"USD\"\nas_of = 2026-01-01\n\
         source = \"a test\"\n\n[billing]\nstep_seconds = 1\nminimum_seconds = 0\n\
         stop_policy = \"stop-charging\"\nreclaims_per_day = \"1\"\n\n[[sku]]\nname = \"a100\"\n\
         gpu_model = \"A100\"\ngpu_count = 1\ngpu_memory_gib = 80\non_demand_per_hour = \"6\"\n\
         spot_per_hour = \"2\"\n\n[network]\negress_per_unit = \"0\"\n",
    )
}

fn estimate_args(rest: &[&str]) -> Vec<String> {
    let mut args = vec!["estimate".to_string(), "--sku".into(), "a100".into()];
    args.extend(rest.iter().map(ToString::to_string));
    args
}

fn text(lang: &str, rest: &[&str]) -> String {
    let args = estimate_args(rest);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    text_on_sheet(&spotty(), lang, &args)
}

fn json(lang: &str, rest: &[&str]) -> Value {
    let mut args = estimate_args(rest);
    args.push("--json".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    serde_json::from_slice(&on_sheet(&spotty(), lang, &args).stdout).unwrap()
}

fn number(v: &Value) -> f64 {
    v.as_str().expect("a decimal string").parse().unwrap()
}

/// (e^{λL} − 1)/λ with λ in reclaims an hour: the mean time to finish L hours restarted at
/// every reclaim.
fn restarted_hours(per_day: f64, job_hours: f64) -> f64 {
    let per_hour = per_day / 24.0;
    ((per_hour * job_hours).exp() - 1.0) / per_hour
}

const WEEK: [&str; 4] = ["--hours-per-day", "24", "--days", "7"];

#[test]
fn a_week_on_spot_with_no_checkpoint_is_warned_and_priced_with_its_restarts() {
    let v = json("en", &WEEK);
    let spot = &v["modes"]["spot"];
    let risk = &spot["no_checkpoint"];
    assert_eq!(risk["outlasts_reclaims"], true);
    assert_eq!(risk["typical_interval_hours"], "24.00");
    assert_eq!(risk["job_hours"], "168.00");
    let expected = restarted_hours(1.0, 168.0);
    assert!((number(&risk["expected_job_hours"]) - expected).abs() < 0.01);
    let rerun = (expected - 168.0) * 2.0;
    assert!((number(&spot["rerun"]) - rerun).abs() < 0.01, "{spot}");
    assert!((number(&spot["compute"]) - (336.0 + rerun)).abs() < 0.01);
    assert_eq!(
        v["cheapest"], "on_demand",
        "the reruns make spot the dearest"
    );

    let out = text("en", &WEEK);
    assert!(
        out.contains("Warning: a spot job of 168 h runs longer than the 24 h spot usually runs"),
        "{out}"
    );
    assert!(out.contains("pass --checkpoint-every"), "{out}");
    assert_eq!(
        json("zh-CN", &WEEK),
        v,
        "JSON never changes with the language"
    );
    let zh = text("zh-CN", &WEEK);
    assert!(zh.contains("警告：168 小时的竞价任务"), "{zh}");
    assert!(!zh.contains("Warning"), "{zh}");
}

#[test]
fn checkpoints_turn_the_warning_into_half_an_interval_a_reclaim() {
    let mut args = WEEK.to_vec();
    args.extend(["--checkpoint-every", "1h"]);
    let v = json("en", &args);
    let spot = &v["modes"]["spot"];
    assert!(spot.get("no_checkpoint").is_none(), "{spot}");
    // 7 reclaims x half an hour x 2 an hour.
    assert_eq!(spot["rerun"], "7.00");
    assert!(!text("en", &args).contains("Warning: a spot job"));
}

#[test]
fn a_job_reclaims_never_let_finish_is_said_and_never_cheapest() {
    let mut args = WEEK.to_vec();
    args.extend(["--reclaims-per-day", "200"]);
    let v = json("en", &args);
    let risk = &v["modes"]["spot"]["no_checkpoint"];
    assert_eq!(risk["expected_job_hours"], Value::Null);
    assert_eq!(risk["rerun"], Value::Null);
    assert_eq!(v["cheapest"], "on_demand");
    assert!(text("en", &args).contains("would in practice never finish"));
}
