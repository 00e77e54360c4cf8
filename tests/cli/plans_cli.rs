//! Every plan a platform sells: `estimate` finds the cheapest mix of years, months (with the
//! duration discount a purchase reaches), weeks, days and on-demand hours; `pricing show`
//! lists the plans and discounts.

use super::sheet_run::{sheet, text_on_sheet};

fn run(lang: &str, args: &[&str]) -> String {
    let plans = sheet(
        "plans",
        "id = \"plans\"\nprovider = \"autodl\"\ncurrency = \"CNY\"\nas_of = 2026-08-21\n\
         source = \"a test\"\n\n[billing]\nstep_seconds = 1\nminimum_seconds = 0\n\
         stop_policy = \"stop-charging\"\nmonth_hours = 720\n\n[[billing.duration_discount]]\n\
         months = 3\noff = \"0.1\"\n\n[[sku]]\nname = \"rtx-4090\"\ngpu_model = \"RTX 4090\"\n\
         gpu_count = 1\ngpu_memory_gib = 24\non_demand_per_hour = \"2\"\ndaily = \"40\"\n\
         weekly = \"250\"\nmonthly = \"1000\"\nyearly = \"9000\"\n\n[network]\negress_per_unit = \"0\"\n",
    );
    text_on_sheet(&plans, lang, args)
}

const HUNDRED_DAYS: [&str; 7] = [
    "estimate",
    "--sku",
    "rtx-4090",
    "--hours-per-day",
    "24",
    "--days",
    "100",
];

#[test]
fn a_hundred_days_buy_three_discounted_months_a_week_and_three_days() {
    let mut args = HUNDRED_DAYS.to_vec();
    args.push("--json");
    let v: serde_json::Value = serde_json::from_str(&run("en", &args)).unwrap();
    let mixed = &v["modes"]["mixed"];
    // 3 months at 10 % off (2700), a week (250) for days 91-97, 3 days by the day (120).
    assert_eq!(mixed["compute"], "3070.00", "{v}");
    assert_eq!(
        (&mixed["months"], &mixed["weeks"], &mixed["days"]),
        (&"3".into(), &1.into(), &3.into())
    );
    assert_eq!(mixed["on_demand_days"], "0");
    assert_eq!(
        v["modes"]["monthly"]["compute"], "3600.00",
        "4 months at 10 % off"
    );
    assert_eq!(v["cheapest"], "mixed");
    let text = run("en", &HUNDRED_DAYS);
    assert!(
        text.contains("Mixed: 3 month(s) of 720 h at 10 % off, 1 week(s), 3 day(s) by the day."),
        "{text}"
    );
    let zh = run("zh-CN", &HUNDRED_DAYS);
    assert!(
        zh.contains("混合：包月 3 个月（每月 720 小时，优惠 10%）、包周 1 周、包日 3 天。"),
        "{zh}"
    );
}

#[test]
fn pricing_show_lists_the_plans_and_the_discount() {
    let out = run("en", &["pricing", "show", "rtx-4090"]);
    for line in [
        "daily           40 CNY per day",
        "weekly          250 CNY per week",
        "yearly          9000 CNY per year",
        "3+ months at once: 10 % off",
    ] {
        assert!(out.contains(line), "{line:?} in {out}");
    }
}
