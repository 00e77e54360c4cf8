//! A sheet's own charges (`[[extras.other]]`): `pricing show` names each with its label and
//! price, and `estimate` puts them in the extras line and says what they are.

use super::sheet_run::{sheet, text_on_sheet};

fn mapped() -> std::path::PathBuf {
    sheet(
        "mapped",
        "id = \"mapped\"\nprovider = \"autodl\"\ncurrency = \"CNY\"\nas_of = 2026-08-21\n\
         source = \"a test\"\n\n[billing]\nstep_seconds = 1\nminimum_seconds = 0\n\
         stop_policy = \"stop-charging\"\nmonth_hours = 720\n\n[[sku]]\nname = \"rtx-4090\"\n\
         gpu_model = \"RTX 4090\"\ngpu_count = 1\ngpu_memory_gib = 24\non_demand_per_hour = \"2\"\n\n\
         [network]\negress_per_unit = \"0\"\n\n[[extras.other]]\nlabel = \"port mapping\"\n\
         per_hour = \"0.05\"\n\n[[extras.other]]\nlabel = \"support plan\"\nper_month = \"72\"\n",
    )
}

fn run(lang: &str, args: &[&str]) -> String {
    text_on_sheet(&mapped(), lang, args)
}

const PLAN: [&str; 7] = [
    "estimate",
    "--sku",
    "rtx-4090",
    "--hours-per-day",
    "8",
    "--days",
    "30",
];

#[test]
fn pricing_show_names_each_charge_with_its_price() {
    let out = run("en", &["pricing", "show", "rtx-4090"]);
    let line = |label: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("{label} in {out}"))
    };
    assert!(
        line("port mapping").ends_with("0.05 CNY/h while up"),
        "{out}"
    );
    assert!(line("support plan").ends_with("72 CNY per month"), "{out}");
    let zh = run("zh-CN", &["pricing", "show", "rtx-4090"]);
    assert!(zh.contains("0.05 CNY/小时（开机时）"), "{zh}");
}

#[test]
fn estimate_bills_them_in_extras_and_says_what_they_are() {
    let mut json = PLAN.to_vec();
    json.push("--json");
    let v: serde_json::Value = serde_json::from_str(&run("en", &json)).unwrap();
    // 240 h of use at 0.05, and one 720-hour month at 72.
    assert_eq!(v["modes"]["on_demand"]["extras"], "84.00", "{v}");
    assert_eq!(v["modes"]["on_demand"]["compute"], "480.00", "{v}");
    let out = run("en", &PLAN);
    assert!(
        out.contains("Extras include, for each instance: port mapping 0.05/h while up; support plan 72 a month."),
        "{out}"
    );
    assert!(run("zh-CN", &PLAN).contains("其他费用已计入"));
}
