use rust_decimal::Decimal;
use rust_decimal::dec;

use super::*;
use crate::pricing::DurationDiscount;

fn cny(on_demand: Decimal, monthly: Decimal) -> PlanPrices {
    PlanPrices {
        on_demand_per_hour: Some(on_demand),
        monthly: Some(monthly),
        ..PlanPrices::inline(Currency::CNY)
    }
}

fn plan(hours_per_day: Decimal, days: Decimal) -> Plan {
    Plan {
        hours_per_day,
        days,
        runs_per_day: 1,
    }
}

fn total(e: &Estimate, mode: PlanMode) -> Decimal {
    e.mode(mode).unwrap().breakdown.total().amount
}

#[test]
fn the_issue_example_compares_on_demand_and_monthly() {
    let e = estimate(
        &cny(dec!(25), dec!(5000)),
        plan(dec!(8), dec!(10)),
        &Needs::default(),
    );
    assert_eq!(total(&e, PlanMode::OnDemand), dec!(2000));
    assert_eq!(total(&e, PlanMode::Monthly), dec!(5000));
    assert!(e.mode(PlanMode::Mixed).is_none(), "one month is no mix");
    assert_eq!(e.cheapest, Some(PlanMode::OnDemand));
    assert_eq!(e.break_even_hours_per_month, Some(dec!(200)));
}

#[test]
fn a_month_and_a_day_on_demand_beat_two_months() {
    let e = estimate(
        &cny(dec!(25), dec!(5000)),
        plan(dec!(24), dec!(31)),
        &Needs::default(),
    );
    assert_eq!(
        e.mode(PlanMode::Monthly).unwrap().breakdown.compute,
        dec!(10000)
    );
    assert_eq!(
        e.mode(PlanMode::OnDemand).unwrap().breakdown.compute,
        dec!(18600)
    );
    let mixed = e.mode(PlanMode::Mixed).unwrap();
    assert_eq!(mixed.breakdown.compute, dec!(5600));
    let mix = mixed.mix.unwrap();
    assert_eq!((mix.months, mix.on_demand_days), (1, dec!(1)));
    assert_eq!(e.cheapest, Some(PlanMode::Mixed));
}

#[test]
fn storage_uses_the_one_month_length_and_egress_beyond_the_allowance() {
    let mut prices = cny(dec!(10), dec!(1000));
    prices.storage_per_gb_month = Some(dec!(1));
    prices.egress_per_gb = Some(dec!(0.5));
    prices.free_egress_gb_per_month = dec!(100);
    let needs = Needs {
        storage_gb: dec!(2000),
        egress_gb: dec!(150),
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(0), dec!(30)), &needs);
    let on_demand = e.mode(PlanMode::OnDemand).unwrap().breakdown;
    assert_eq!(on_demand.compute, dec!(0));
    assert_eq!(on_demand.storage, dec!(2000));
    assert_eq!(on_demand.bandwidth, dec!(25));
}

#[test]
fn runs_bill_their_minimum_and_boot_fee() {
    let mut prices = cny(dec!(25), dec!(5000));
    prices.minimum_seconds = 3600;
    prices.extras.boot_fee = Some(dec!(5));
    let plan = Plan {
        hours_per_day: dec!(1),
        days: dec!(1),
        runs_per_day: 4,
    };
    let e = estimate(&prices, plan, &Needs::default());
    let b = e.mode(PlanMode::OnDemand).unwrap().breakdown;
    assert_eq!((b.compute, b.extras), (dec!(100), dec!(20)));
}

#[test]
fn an_unknown_price_is_named_and_never_free() {
    let mut prices = cny(dec!(10), dec!(1000));
    prices.egress_per_gb = None;
    let needs = Needs {
        egress_gb: dec!(500),
        storage_gb: dec!(10),
        public_ips: 1,
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(1), dec!(1)), &needs);
    let keys: Vec<_> = e.modes[0].unknown.iter().map(|u| u.key).collect();
    assert_eq!(
        keys,
        vec![
            "network.egress_per_unit",
            "storage.disk",
            "extras.public_ip_attached_per_hour"
        ]
    );
    assert!(!e.modes[0].is_complete());
}

#[test]
fn a_load_balancer_bills_every_hour_and_an_ip_idles_between_runs() {
    let mut prices = cny(dec!(10), dec!(1000));
    prices.extras.load_balancer_per_hour = Some(dec!(0.42));
    prices.extras.public_ip_attached_per_hour = Some(dec!(0.01));
    prices.extras.public_ip_idle_per_hour = Some(dec!(0.02));
    let needs = Needs {
        load_balancers: 1,
        public_ips: 1,
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(4), dec!(30)), &needs);
    // 0.42 x 720 + 0.01 x 120 + 0.02 x 600.
    assert_eq!(e.modes[0].breakdown.extras, dec!(315.60));
}

#[test]
fn spot_adds_the_expected_rerun_or_names_the_missing_rate() {
    let mut prices = PlanPrices::inline(Currency::USD);
    prices.spot_per_hour = Some(dec!(2));
    let mut needs = Needs {
        checkpoint_every_hours: Some(dec!(1)),
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(12), dec!(10)), &needs);
    assert_eq!(e.modes[0].unknown[0].key, "billing.reclaims_per_day");
    needs.reclaims_per_day = Some(dec!(0.5));
    let e = estimate(&prices, plan(dec!(12), dec!(10)), &needs);
    // 120 h of running = 5 days: 2.5 reclaims x 0.5 h lost x 2 per hour.
    assert_eq!(e.modes[0].rerun, Some(dec!(2.5)));
    assert_eq!(e.modes[0].breakdown.compute, dec!(242.5));
}

/// The spot-only prices of a plan, reclaims at `per_day`.
fn spot(rate: Decimal, per_day: Option<Decimal>) -> PlanPrices {
    PlanPrices {
        spot_per_hour: Some(rate),
        on_demand_per_hour: Some(rate * dec!(3)),
        reclaims_per_day: per_day,
        ..PlanPrices::inline(Currency::USD)
    }
}

/// The expected hours of a job restarted at every reclaim, computed apart in floating point.
fn restarted_hours(per_day: f64, job_hours: f64) -> f64 {
    let per_hour = per_day / 24.0;
    ((per_hour * job_hours).exp() - 1.0) / per_hour
}

fn close(got: Decimal, want: f64) {
    let got: f64 = got.to_string().parse().unwrap();
    assert!(
        (got - want).abs() <= want.abs() * 1e-9,
        "{got} against {want}"
    );
}

#[test]
fn a_week_on_spot_with_no_checkpoint_is_priced_as_restarts_and_warned() {
    let e = estimate(
        &spot(dec!(2), Some(dec!(1))),
        plan(dec!(24), dec!(7)),
        &Needs::default(),
    );
    let s = e.mode(PlanMode::Spot).unwrap();
    let risk = s
        .no_checkpoint
        .expect("no checkpoint: the restart risk is priced");
    assert_eq!(
        risk.job_hours,
        dec!(168),
        "all day for a week never stops: one job"
    );
    assert_eq!(risk.typical_interval_hours, dec!(24));
    assert!(risk.outlasts_reclaims());
    let expected = restarted_hours(1.0, 168.0);
    close(risk.expected_job_hours.unwrap(), expected);
    close(s.rerun.unwrap(), (expected - 168.0) * 2.0);
    assert_eq!(s.breakdown.compute, dec!(336) + s.rerun.unwrap());
    assert_eq!(
        e.cheapest,
        Some(PlanMode::OnDemand),
        "e^7 of reruns: on-demand wins"
    );
}

#[test]
fn short_daily_runs_on_spot_are_not_warned_and_cost_little_more() {
    let e = estimate(
        &spot(dec!(2), Some(dec!(0.5))),
        plan(dec!(2), dec!(10)),
        &Needs::default(),
    );
    let s = e.mode(PlanMode::Spot).unwrap();
    let risk = s.no_checkpoint.unwrap();
    assert_eq!((risk.job_hours, risk.jobs), (dec!(2), dec!(10)));
    assert!(
        !risk.outlasts_reclaims(),
        "2 h against 48 h between reclaims"
    );
    close(
        s.rerun.unwrap(),
        (restarted_hours(0.5, 2.0) - 2.0) * 10.0 * 2.0,
    );
    assert_eq!(e.cheapest, Some(PlanMode::Spot));
}

#[test]
fn a_job_reclaims_never_let_finish_has_no_number_and_is_never_cheapest() {
    let e = estimate(
        &spot(dec!(2), Some(dec!(100))),
        plan(dec!(24), dec!(7)),
        &Needs::default(),
    );
    let s = e.mode(PlanMode::Spot).unwrap();
    let risk = s.no_checkpoint.unwrap();
    assert_eq!((risk.expected_job_hours, risk.rerun), (None, None));
    assert_eq!(s.breakdown.compute, dec!(336));
    assert_eq!(e.cheapest, Some(PlanMode::OnDemand));
}

#[test]
fn a_checkpoint_interval_or_an_unknown_rate_leaves_the_restart_risk_out() {
    let with_checkpoints = Needs {
        checkpoint_every_hours: Some(dec!(1)),
        ..Needs::default()
    };
    let week = plan(dec!(24), dec!(7));
    let e = estimate(&spot(dec!(2), Some(dec!(1))), week, &with_checkpoints);
    let s = e.mode(PlanMode::Spot).unwrap();
    assert_eq!(s.no_checkpoint, None);
    // 7 reclaims x half an hour x 2 per hour.
    assert_eq!(s.rerun, Some(dec!(7)));
    let e = estimate(&spot(dec!(2), None), week, &Needs::default());
    let s = e.mode(PlanMode::Spot).unwrap();
    assert_eq!((s.no_checkpoint, s.rerun), (None, None));
    assert_eq!(e.cheapest, Some(PlanMode::Spot));
}

#[test]
fn a_mode_without_a_price_is_absent() {
    let mut prices = cny(dec!(10), dec!(1000));
    prices.monthly = None;
    prices.spot_per_hour = Some(dec!(3));
    let e = estimate(&prices, plan(dec!(1), dec!(1)), &Needs::default());
    let modes: Vec<_> = e.modes.iter().map(|m| m.mode).collect();
    assert_eq!(modes, vec![PlanMode::OnDemand, PlanMode::Spot]);
    assert_eq!(e.cheapest, Some(PlanMode::Spot));
    assert_eq!(e.break_even_hours_per_month, None);
}

#[test]
fn a_plan_running_all_day_boots_once_not_every_day() {
    let mut prices = cny(dec!(25), dec!(5000));
    prices.extras.boot_fee = Some(dec!(5));
    let e = estimate(&prices, plan(dec!(24), dec!(10)), &Needs::default());
    assert_eq!(
        e.mode(PlanMode::OnDemand).unwrap().breakdown.extras,
        dec!(5)
    );
    // A plan that stops each day boots each day.
    let e = estimate(&prices, plan(dec!(23), dec!(10)), &Needs::default());
    assert_eq!(
        e.mode(PlanMode::OnDemand).unwrap().breakdown.extras,
        dec!(50)
    );
}

#[test]
fn an_unknown_line_has_no_amount_and_its_total_says_incomplete() {
    let mut prices = cny(dec!(10), dec!(1000));
    prices.egress_per_gb = None;
    let needs = Needs {
        egress_gb: dec!(500),
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(1), dec!(1)), &needs);
    let on_demand = e.mode(PlanMode::OnDemand).unwrap();
    assert_eq!(on_demand.line(Line::Bandwidth), None);
    assert_eq!(on_demand.line(Line::Compute), Some(dec!(10)));
    let total = on_demand.total();
    assert_eq!(total.exact(), None);
    assert_eq!(
        total.unknown,
        vec!["bandwidth: no price for network.egress_per_unit".to_string()]
    );
    assert_eq!(total.to_string(), "≥ 10.00 + 1 unknown");
}

#[test]
fn a_mode_with_a_gap_of_its_own_is_never_the_cheapest() {
    let mut prices = cny(dec!(10), dec!(100000));
    prices.spot_per_hour = Some(dec!(1));
    let needs = Needs {
        checkpoint_every_hours: Some(dec!(1)),
        ..Needs::default()
    };
    let e = estimate(&prices, plan(dec!(12), dec!(10)), &needs);
    assert!(!e.mode(PlanMode::Spot).unwrap().is_complete());
    assert_eq!(e.cheapest, Some(PlanMode::OnDemand));
}

#[test]
fn per_gpu_hour_divides_the_total_by_the_gpu_hours_of_use() {
    let e = estimate(
        &cny(dec!(25), dec!(5000)),
        plan(dec!(8), dec!(10)),
        &Needs::default(),
    );
    let on_demand = e.mode(PlanMode::OnDemand).unwrap();
    let per = on_demand.per_gpu_hour(&e.plan, 4).unwrap();
    assert_eq!(per.amount, dec!(6.25));
}

/// Prices by the hour and by plans: day, week, month (720 h) and year, any of them absent.
fn plans(
    hourly: Option<Decimal>,
    daily: Option<Decimal>,
    weekly: Option<Decimal>,
    monthly: Option<Decimal>,
    yearly: Option<Decimal>,
) -> PlanPrices {
    PlanPrices {
        on_demand_per_hour: hourly,
        daily,
        weekly,
        monthly,
        yearly,
        ..PlanPrices::inline(Currency::CNY)
    }
}

fn mixed(e: &Estimate) -> mix::Mix {
    e.mode(PlanMode::Mixed).and_then(|m| m.mix).expect("a mix")
}

#[test]
fn a_week_and_three_days_beat_ten_days_by_the_hour() {
    let p = plans(Some(dec!(2)), Some(dec!(40)), Some(dec!(200)), None, None);
    let e = estimate(&p, plan(dec!(24), dec!(10)), &Needs::default());
    let m = mixed(&e);
    assert_eq!((m.weeks, m.days, m.on_demand_days), (1, 3, dec!(0)));
    assert_eq!(m.compute, dec!(320));
    assert_eq!(e.cheapest, Some(PlanMode::Mixed));
}

#[test]
fn part_days_run_on_demand_beside_a_cheap_week() {
    let p = plans(Some(dec!(2)), Some(dec!(40)), Some(dec!(30)), None, None);
    let e = estimate(&p, plan(dec!(4), dec!(10)), &Needs::default());
    let m = mixed(&e);
    // A week covers 7 days for 30; the other 3 days run 4 h at 2 an hour.
    assert_eq!((m.weeks, m.days, m.on_demand_days), (1, 0, dec!(3)));
    assert_eq!(m.compute, dec!(54));
}

#[test]
fn months_bought_at_once_take_the_duration_discount_they_reach() {
    let mut p = plans(Some(dec!(2)), None, None, Some(dec!(1000)), None);
    p.duration_discounts = vec![
        DurationDiscount {
            months: 3,
            off: dec!(0.10),
        },
        DurationDiscount {
            months: 6,
            off: dec!(0.20),
        },
    ];
    let half_year = estimate(&p, plan(dec!(24), dec!(180)), &Needs::default());
    assert_eq!(total(&half_year, PlanMode::Monthly), dec!(4800));
    let hundred_days = estimate(&p, plan(dec!(24), dec!(100)), &Needs::default());
    assert_eq!(
        total(&hundred_days, PlanMode::Monthly),
        dec!(3600),
        "4 months at 10 % off"
    );
    let m = mixed(&hundred_days);
    // 3 months at 10 % off, then 10 days of 48.
    assert_eq!(
        (m.months, m.on_demand_days, m.compute),
        (3, dec!(10), dec!(3180))
    );
}

#[test]
fn a_year_then_a_month_then_days_on_demand() {
    let p = plans(
        Some(dec!(2)),
        None,
        None,
        Some(dec!(1000)),
        Some(dec!(9000)),
    );
    let e = estimate(&p, plan(dec!(24), dec!(400)), &Needs::default());
    let m = mixed(&e);
    // 365 days for 9000, 30 for 1000, the last 5 at 48 a day.
    assert_eq!((m.years, m.months, m.on_demand_days), (1, 1, dec!(5)));
    assert_eq!(m.compute, dec!(10240));
}

proptest::proptest! {
    /// Against every count of every plan tried by hand on short plans: the mix found is never
    /// dearer than any combination, and it costs what its counts say.
    #[test]
    fn the_mix_is_the_cheapest_of_every_combination(
        hourly in 1u32..50,
        daily in proptest::option::of(10u32..1200),
        weekly in proptest::option::of(50u32..8000),
        monthly in proptest::option::of(200u32..30000),
        hours_per_day in 1u32..=24,
        days in 1u32..45,
    ) {
        let d = |n: Option<u32>| n.map(Decimal::from);
        let p = plans(Some(Decimal::from(hourly)), d(daily), d(weekly), d(monthly), None);
        let pl = plan(Decimal::from(hours_per_day), Decimal::from(days));
        let od_day = Decimal::from(hourly * hours_per_day);
        let mut cheapest = od_day * Decimal::from(days);
        for months in 0..=(if monthly.is_some() { 2 } else { 0 }) {
            for weeks in 0..=(if weekly.is_some() { 7 } else { 0 }) {
                for by_day in 0..=(if daily.is_some() { days } else { 0 }) {
                    let covered = months * 30 + weeks * 7 + by_day;
                    let cost = Decimal::from(months * monthly.unwrap_or(0)
                        + weeks * weekly.unwrap_or(0)
                        + by_day * daily.unwrap_or(0))
                        + od_day * Decimal::from(days.saturating_sub(covered));
                    cheapest = cheapest.min(cost);
                }
            }
        }
        let e = estimate(&p, pl, &Needs::default());
        let best = e.modes.iter().map(|m| m.breakdown.compute).min().unwrap();
        proptest::prop_assert_eq!(best, cheapest);
        if let Some(m) = e.mode(PlanMode::Mixed).and_then(|m| m.mix) {
            let said = Decimal::from(m.months * monthly.unwrap_or(0)
                + m.weeks * weekly.unwrap_or(0)
                + m.days * daily.unwrap_or(0))
                + od_day * m.on_demand_days;
            proptest::prop_assert_eq!(m.compute, said);
        }
    }
}
