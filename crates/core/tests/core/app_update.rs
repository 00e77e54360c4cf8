//! `update` for every key and every provider answer, on the demo fixture.

use std::time::Duration;

use crate::drive::{ch, last_log, press};
use gpumeter_core::app::{App, Choice, Effect, Event, Focus, Level, Mode, update};
use gpumeter_core::app::{KeyCode, KeyPress};
use gpumeter_core::cloud::{Action, ActionReport, ProviderError};
use gpumeter_core::demo::demo_app;
use gpumeter_core::guard::OnExpiry;
use jiff::SignedDuration;
use rust_decimal::Decimal;

use gpumeter_core::demo::guard_state;

fn app() -> App {
    demo_app(Duration::from_secs(3 * 3600))
}

#[test]
fn the_fixture_has_a_reading_and_leftovers() {
    let app = app();
    let r = app.spend.reading.as_ref().expect("a reading");
    assert!(r.accrual.accrued.compute > Decimal::ZERO);
    assert!(r.leftover_monthly > Decimal::ZERO);
    assert!(matches!(app.mode, Mode::Main));
}

#[test]
fn question_mark_toggles_help_and_esc_closes_it() {
    let mut app = app();
    ch(&mut app, '?');
    assert_eq!(app.mode, Mode::Help);
    ch(&mut app, '?');
    assert_eq!(app.mode, Mode::Main);
    ch(&mut app, '?');
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Main);
    assert!(!app.quit, "q or Esc in help closes help, not the cockpit");
}

#[test]
fn q_and_ctrl_c_quit() {
    let mut app = app();
    ch(&mut app, 'q');
    assert!(app.quit);
    let mut app = self::app();
    ch(&mut app, 'R');
    update(&mut app, Event::Key(KeyPress::ctrl('c')));
    assert!(app.quit, "Ctrl-C quits even from a dialog");
}

#[test]
fn tab_arrows_and_hjkl_move_focus_and_selection() {
    let mut app = app();
    assert_eq!(app.focus, Focus::Gpus);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Cost);
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.focus, Focus::Gpus);
    ch(&mut app, 'l');
    assert_eq!(app.focus, Focus::Cost);
    press(&mut app, KeyCode::Left);
    ch(&mut app, 'h');
    assert_eq!(app.focus, Focus::Events);
    press(&mut app, KeyCode::Right);
    assert_eq!(app.focus, Focus::Gpus);
    ch(&mut app, 'j');
    press(&mut app, KeyCode::Down);
    assert_eq!(app.selected_gpu, 2);
    ch(&mut app, 'k');
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.selected_gpu, 0, "selection stops at the top");
    for _ in 0..20 {
        ch(&mut app, 'j');
    }
    assert_eq!(app.selected_gpu, 7, "and at the last GPU");
    app.focus = Focus::Resources;
    ch(&mut app, 'j');
    assert_eq!(app.selected_resource, 1);
}

#[test]
fn p_toggles_the_process_view() {
    let mut app = app();
    ch(&mut app, 'p');
    assert!(app.show_processes);
    ch(&mut app, 'p');
    assert!(!app.show_processes);
}

#[test]
fn e_extends_an_alert_only_deadline_in_the_ledger_and_never_at_the_provider() {
    let mut app = app();
    let before = app.deadline.unwrap().at;
    let effects = ch(&mut app, 'e');
    let after = app.deadline.unwrap().at;
    assert_eq!(after.duration_since(before), SignedDuration::from_hours(1));
    assert_eq!(
        effects,
        vec![Effect::SaveGuard {
            instance: "i-0demo4a100f00d".into(),
            deadline: Some(after),
            on_expiry: OnExpiry::Alert,
            grace: app.settings.grace,
            by: "cockpit".into(),
        }],
        "a provider-held deadline would release the instance, which alert only never does"
    );
    assert!(last_log(&app).1.contains("extended"));
}

#[test]
fn e_moves_a_deadline_the_provider_holds_there_too_and_says_when_it_may_not_have() {
    let mut app = app();
    app.deadline.as_mut().unwrap().held_by_provider = true;
    let effects = ch(&mut app, 'e');
    let after = app.deadline.unwrap().at;
    assert!(
        matches!(effects.first(), Some(Effect::SaveGuard { .. })),
        "the ledger first, so the watchdog never acts on the old time: {effects:?}"
    );
    assert_eq!(
        effects.last(),
        Some(&Effect::Perform(Action::SetDeadline { at: Some(after) }))
    );
    update(
        &mut app,
        Event::ActionDone {
            action: Action::SetDeadline { at: Some(after) },
            result: Err(ProviderError::unreachable("demo", "timed out")),
        },
    );
    let (level, text) = last_log(&app);
    assert_eq!(level, Level::Warn);
    assert!(text.contains("may still hold its old deadline"), "{text}");

    let mut release = self::app();
    release.deadline.as_mut().unwrap().on_expiry = OnExpiry::Release;
    let effects = ch(&mut release, 'e');
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Perform(Action::SetDeadline { .. }))),
        "with release at expiry the provider may hold it: {effects:?}"
    );
}

#[test]
fn capital_e_asks_for_a_duration_and_rejects_nonsense() {
    let mut app = app();
    let before = app.deadline.unwrap().at;
    ch(&mut app, 'E');
    for c in "soon".chars() {
        ch(&mut app, c);
    }
    press(&mut app, KeyCode::Enter);
    let Mode::Prompt { error, .. } = &app.mode else {
        panic!("still prompting")
    };
    assert!(error.as_deref().unwrap().contains("not a duration"));
    for _ in 0..4 {
        press(&mut app, KeyCode::Backspace);
    }
    for c in "45m".chars() {
        ch(&mut app, c);
    }
    let effects = press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Main);
    assert_eq!(
        app.deadline.unwrap().at.duration_since(before),
        SignedDuration::from_mins(45)
    );
    assert_eq!(
        effects.len(),
        1,
        "saved in the ledger; an alert-only deadline is not held at the provider"
    );
    ch(&mut app, 'E');
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Main);
}

#[test]
fn r_retries_nvml() {
    let mut app = app();
    assert_eq!(ch(&mut app, 'r'), vec![Effect::RetryGpu]);
}

#[test]
fn capital_r_opens_a_release_confirmation_with_cancel_as_default() {
    let mut app = app();
    assert!(ch(&mut app, 'R').is_empty());
    let Mode::Confirm(c) = &app.mode else {
        panic!("a dialog")
    };
    assert_eq!(c.action, Action::Release);
    assert_eq!(c.choice, Choice::Cancel);
    assert!(c.target.contains("i-0demo4a100f00d"));
    assert!(c.deleted.iter().any(|l| l.label.contains("vol-0root")));
    assert!(c.survivors.iter().any(|l| l.label.contains("vol-0data")));
    assert!(c.cost_per_hour.is_some());
    // Enter takes the default: cancel.
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    assert_eq!(app.mode, Mode::Main);
    assert!(last_log(&app).1.contains("cancelled"));
}

#[test]
fn y_confirms_and_sends_the_action_once() {
    let mut app = app();
    ch(&mut app, 'R');
    let effects = ch(&mut app, 'y');
    assert_eq!(effects, vec![Effect::Perform(Action::Release)]);
    assert!(app.cloud.running.is_some());
    // A second destructive key while one runs does not open another dialog.
    ch(&mut app, 'S');
    assert_eq!(app.mode, Mode::Main);
    assert!(last_log(&app).1.contains("still running"));
}

#[test]
fn arrows_move_the_dialog_choice_and_n_or_esc_cancel() {
    let mut app = app();
    ch(&mut app, 'S');
    press(&mut app, KeyCode::Right);
    let Mode::Confirm(c) = &app.mode else {
        panic!("a dialog")
    };
    assert_eq!(c.choice, Choice::Confirm);
    assert_eq!(c.action, Action::Stop);
    assert_eq!(
        press(&mut app, KeyCode::Enter),
        vec![Effect::Perform(Action::Stop)]
    );

    let mut app = self::app();
    ch(&mut app, 'C');
    let Mode::Confirm(c) = &app.mode else {
        panic!("a dialog")
    };
    assert!(matches!(c.action, Action::SnapshotClean { keep: 1, .. }));
    assert_eq!(c.deleted.len(), 2, "the two older snapshots");
    ch(&mut app, 'n');
    assert_eq!(app.mode, Mode::Main);
    ch(&mut app, 'C');
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Main);
}

#[test]
fn read_only_has_no_key_that_writes() {
    let mut app = app();
    app.settings.read_only = true;
    let before = app.deadline;
    for c in ['R', 'S', 'C', 'e', 'E'] {
        assert!(ch(&mut app, c).is_empty());
        assert_eq!(app.mode, Mode::Main, "{c}");
    }
    assert_eq!(app.deadline, before, "the deadline stays where it was");
    let (_, said) = last_log(&app);
    assert!(said.starts_with("read-only:"), "{said}");
}

#[test]
fn a_confirmed_action_is_done_and_an_unconfirmed_one_is_not() {
    let mut app = app();
    ch(&mut app, 'R');
    ch(&mut app, 'y');
    let report = |confirmed| ActionReport {
        action: Action::Release,
        confirmed,
        summary: "i-0demo4a100f00d: released".into(),
        calls: vec![],
    };
    let effects = update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(report(true)),
        },
    );
    assert_eq!(effects, vec![Effect::RefreshInventory]);
    assert!(app.cloud.running.is_none());
    assert_eq!(last_log(&app).0, Level::Done);

    update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(report(false)),
        },
    );
    let (level, text) = last_log(&app);
    assert_eq!(level, Level::Error);
    assert!(text.contains("NOT confirmed"));

    update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Err(ProviderError::throttled("demo", None).with_code("Throttling")),
        },
    );
    let (level, text) = last_log(&app);
    assert_eq!(level, Level::Error);
    assert!(
        text.contains("failed (throttled): wait and retry"),
        "{text}"
    );
    assert!(text.contains("Throttling"), "{text}");
}

#[test]
fn ticks_warn_at_30_10_and_1_minutes_and_ring_the_bell() {
    let mut app = app();
    let at = app.deadline.unwrap().at;
    app.bell = false;
    update(&mut app, Event::Tick(at - SignedDuration::from_mins(30)));
    assert!(app.bell);
    assert!(last_log(&app).1.contains("30 minutes left"));
    update(&mut app, Event::Tick(at - SignedDuration::from_mins(10)));
    assert!(last_log(&app).1.contains("10 minutes left"));
    update(&mut app, Event::Tick(at - SignedDuration::from_secs(59)));
    assert!(last_log(&app).1.contains("1 minute left"));
    update(&mut app, Event::Tick(at));
    assert!(last_log(&app).1.contains("deadline reached"));
}

#[test]
fn an_inventory_error_is_kept_and_shown_not_fatal() {
    let mut app = app();
    let timed_out = ProviderError::unreachable("demo", "provider timed out");
    update(&mut app, Event::Inventory(Err(timed_out.clone())));
    assert_eq!(app.cloud.error, Some(timed_out));
    assert_eq!(
        app.cloud.error.as_ref().map(ToString::to_string).as_deref(),
        Some("provider timed out")
    );
    assert!(
        app.cloud.inventory.is_some(),
        "the last good inventory stays"
    );
}

#[test]
fn the_first_inventory_names_the_instance_of_the_guard_row() {
    let app = app();
    assert_eq!(app.guard.instance.as_deref(), Some("i-0demo4a100f00d"));
    assert!(
        app.guard.settled,
        "the fixture's empty guard row settled it"
    );
}

#[test]
fn any_key_in_the_grace_period_cancels_the_pending_release() {
    let mut app = app();
    let d = app.deadline.as_mut().unwrap();
    d.on_expiry = OnExpiry::Release;
    let at = d.at;
    update(&mut app, Event::Tick(at + SignedDuration::from_secs(30)));
    let effects = ch(&mut app, 'x');
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::SaveGuard { .. })),
        "{effects:?}"
    );
    assert!(app.deadline.unwrap().at > app.now, "moved ahead of now");
    assert!(
        app.events
            .iter()
            .any(|e| e.text.contains("release at the deadline cancelled"))
    );
    // q still quits in the grace period.
    let next = app.deadline.unwrap().at + SignedDuration::from_secs(1);
    update(&mut app, Event::Tick(next));
    ch(&mut app, 'q');
    assert!(app.quit);
}

#[test]
fn the_guard_row_shows_the_watchdog_and_a_deadline_moved_elsewhere() {
    let mut app = app();
    let now = app.now;
    let moved = now + SignedDuration::from_hours(5);
    update(
        &mut app,
        Event::Guard(guard_state(Some(moved), 3, "extend", now)),
    );
    let w = app.guard.watchdog.unwrap();
    assert!(w.alive && w.pid == 4242);
    assert_eq!(app.deadline.unwrap().at, moved);
    assert!(app.events.back().unwrap().text.contains("by extend"));
    // Our own writes do not bounce back; a silent watchdog is shown as not alive.
    let stale = now - SignedDuration::from_mins(5);
    update(
        &mut app,
        Event::Guard(guard_state(Some(now), 4, "cockpit", stale)),
    );
    assert_eq!(app.deadline.unwrap().at, moved);
    assert!(!app.guard.watchdog.unwrap().alive);
}

#[test]
fn a_heartbeat_alone_waits_for_the_next_tick_to_be_drawn() {
    let mut app = app();
    let now = app.now;
    update(&mut app, Event::Guard(guard_state(None, 3, "cockpit", now)));
    assert!(
        app.dirty,
        "a watchdog seen for the first time is drawn at once"
    );
    app.dirty = false;
    let later = now + SignedDuration::from_secs(2);
    update(
        &mut app,
        Event::Guard(guard_state(None, 3, "cockpit", later)),
    );
    assert_eq!(app.guard.watchdog.unwrap().last_check, later);
    assert!(
        !app.dirty,
        "a newer heartbeat alone needs no frame of its own"
    );
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(1)));
    assert!(app.dirty, "the next tick draws it");
    app.dirty = false;
    let stale = now - SignedDuration::from_mins(5);
    update(
        &mut app,
        Event::Guard(guard_state(None, 3, "cockpit", stale)),
    );
    assert!(app.dirty, "a watchdog gone silent is drawn at once");
}

#[test]
fn a_spot_notice_rings_once_and_is_logged_as_an_error() {
    let mut app = app();
    app.bell = false;
    let at = app.now + SignedDuration::from_secs(120);
    update(&mut app, Event::Interruption(at));
    assert_eq!(app.interruption, Some(at));
    assert!(app.bell);
    let (level, text) = last_log(&app);
    assert_eq!(level, Level::Error);
    assert!(text.contains("spot interruption"), "{text}");
    let logged = app.logged;
    update(&mut app, Event::Interruption(at));
    assert_eq!(app.logged, logged, "said once");
}

#[test]
fn budget_thresholds_and_the_forecast_are_logged_with_the_bell() {
    let mut app = app();
    let spent = app.spend.reading.as_ref().unwrap().accrual.accrued.total();
    // A limit just above what is spent: past 80 %, and gone within the hour at 27.87/h.
    let limit = gpumeter_core::money::Money::new(spent.amount + Decimal::from(5), spent.currency);
    app.budget = Some(gpumeter_core::guard::BudgetWatch::new(limit));
    app.bell = false;
    let now = app.now;
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(1)));
    let texts: Vec<&str> = app
        .events
        .iter()
        .rev()
        .take(2)
        .map(|e| e.text.as_str())
        .collect();
    // The level reached is said, not the 80 % threshold it passed.
    let spent = app.spend.reading.as_ref().unwrap().accrual.accrued.total();
    let level = (spent.amount * Decimal::from(100) / limit.amount).floor();
    assert!(level > Decimal::from(80), "{level}");
    let said = format!("budget: {level}% used ({spent} of {limit})");
    assert!(texts.iter().any(|t| t.starts_with(&said)), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("at this rate")),
        "{texts:?}"
    );
    assert!(app.bell);
}

#[test]
fn a_stale_checkpoint_on_the_root_disk_warns_once_each() {
    use gpumeter_core::app::state::CheckpointView;
    use gpumeter_core::guard::Checkpoint;
    let mut app = app();
    app.checkpoint = Some(CheckpointView::new("/ckpt/*.pt".into(), None));
    let old = Checkpoint {
        path: "/ckpt/step-100.pt".into(),
        modified: app.now - SignedDuration::from_mins(90),
        mount: "/".into(),
    };
    let before = app.logged;
    update(&mut app, Event::Checkpoint(Ok(Some(old.clone()))));
    let texts: Vec<&str> = app
        .events
        .iter()
        .rev()
        .take(2)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(app.logged, before + 2, "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("90 min old")), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("deleted with the instance")),
        "{texts:?}"
    );
    update(&mut app, Event::Checkpoint(Ok(Some(old))));
    assert_eq!(app.logged, before + 2, "not repeated a minute later");
    update(&mut app, Event::Checkpoint(Ok(None)));
    assert!(last_log(&app).1.contains("nothing matches /ckpt/*.pt"));
}

#[test]
fn the_monthly_budget_adds_this_run_to_what_the_month_already_spent() {
    use gpumeter_core::app::state::MonthBudget;
    use gpumeter_core::guard::{BudgetWatch, MonthSpend};
    use gpumeter_core::money::Money;
    let mut app = app();
    let currency = app.spend.pricing.as_ref().unwrap().sheet.currency;
    app.month_budget = Some(MonthBudget {
        watch: BudgetWatch::new(Money::new(Decimal::from(1000), currency)),
        month: MonthSpend::new(
            Money::new(Decimal::from(790), currency),
            app.now,
            &app.spend.time_zone,
        )
        .unwrap(),
    });
    let start = app.now;
    update(&mut app, Event::Tick(start + SignedDuration::from_secs(1)));
    assert!(
        app.events
            .iter()
            .any(|e| e.text.starts_with("budget this month: 79% used")),
        "790 of 1000 crosses 50 %, and says the 79 % it stands at"
    );
    assert!(
        !app.events
            .iter()
            .any(|e| e.text.contains("this month: 80%"))
    );
    // Half an hour at 27.87 an hour adds about 14: 80 % of 1000 is reached at 800.
    update(&mut app, Event::Tick(start + SignedDuration::from_mins(30)));
    assert!(
        app.events
            .iter()
            .any(|e| e.text.starts_with("budget this month: 80% used"))
    );
}

#[test]
fn the_same_deadline_in_whole_seconds_is_not_a_move() {
    let mut app = app();
    let at = app.deadline.unwrap().at + SignedDuration::from_millis(400);
    app.deadline.as_mut().unwrap().at = at;
    let logged = app.logged;
    let whole = jiff::Timestamp::from_second(at.as_second()).unwrap();
    let now = app.now;
    update(
        &mut app,
        Event::Guard(guard_state(Some(whole), 7, "watchdog", now)),
    );
    assert_eq!(
        app.logged, logged,
        "the watchdog's claim is not a deadline move"
    );
    assert_eq!(app.deadline.unwrap().at, at);
}

/// A row of another account's instance, as the fleet read would give it.
fn fleet_row(id: &str) -> gpumeter_core::fleet::FleetRow {
    let origin = gpumeter_core::fleet::Origin {
        account: "lab".into(),
        provider: "demo".into(),
        region: None,
        instance_id: id.into(),
    };
    let now = gpumeter_core::demo::fixture_now();
    gpumeter_core::fleet::row(
        origin,
        Err("no answer"),
        None,
        gpumeter_core::fleet::Reporting::default(),
        now,
    )
}

fn tick_by(app: &mut App, secs: i64) -> Vec<Effect> {
    let at = app.now + SignedDuration::from_secs(secs);
    update(app, Event::Tick(at))
}

#[test]
fn f_asks_for_the_fleet_once_and_the_answer_fills_it() {
    let mut app = app();
    app.fleet_link.accounts = 2;
    app.fleet_link.instances = 3;
    assert_eq!(ch(&mut app, 'F'), [Effect::RefreshFleet]);
    assert!(app.fleet_link.reading);
    // In flight: closing and opening again, or the clock, starts no second read.
    assert!(ch(&mut app, 'F').is_empty());
    assert!(ch(&mut app, 'F').is_empty());
    assert!(tick_by(&mut app, 90).is_empty());
    let rows = vec![fleet_row("i-a"), fleet_row("i-b")];
    assert!(update(&mut app, Event::Fleet(rows.clone())).is_empty());
    assert_eq!(app.fleet, rows);
    assert_eq!(app.fleet_link.read_at, Some(app.now));
    assert!(!app.fleet_link.reading);
}

#[test]
fn the_open_fleet_screen_reads_again_after_a_minute_and_a_closed_one_does_not() {
    let mut app = app();
    app.fleet_link.accounts = 1;
    assert_eq!(ch(&mut app, 'F'), [Effect::RefreshFleet]);
    update(&mut app, Event::Fleet(vec![fleet_row("i-a")]));
    assert!(
        tick_by(&mut app, 30).is_empty(),
        "half a minute old is fresh"
    );
    ch(&mut app, 'F');
    assert!(ch(&mut app, 'F').is_empty(), "reopened while fresh");
    assert_eq!(tick_by(&mut app, 30), [Effect::RefreshFleet]);
    update(&mut app, Event::Fleet(Vec::new()));
    ch(&mut app, 'F');
    assert!(tick_by(&mut app, 600).is_empty(), "the screen is closed");
    assert_eq!(
        ch(&mut app, 'F'),
        [Effect::RefreshFleet],
        "stale on opening"
    );
}

#[test]
fn without_fleet_accounts_nothing_is_read() {
    let mut app = app();
    assert_eq!(app.fleet_link.accounts, 0);
    assert!(ch(&mut app, 'F').is_empty());
    assert!(app.show_fleet);
    assert!(tick_by(&mut app, 600).is_empty());
    assert!(!app.fleet_link.reading);
}

#[test]
fn quitting_while_an_action_runs_waits_for_its_answer() {
    let mut app = app();
    ch(&mut app, 'R');
    ch(&mut app, 'y');
    ch(&mut app, 'q');
    assert!(!app.quit, "the release has no answer yet");
    assert!(
        last_log(&app)
            .1
            .contains("quitting once the release is answered")
    );
    let done = ActionReport {
        action: Action::Release,
        confirmed: true,
        summary: "i-0demo4a100f00d: released".into(),
        calls: vec![],
    };
    let effects = update(
        &mut app,
        Event::ActionDone {
            action: Action::Release,
            result: Ok(done),
        },
    );
    assert!(app.quit, "the answer came: the cockpit quits");
    assert!(effects.is_empty(), "nothing more is asked of the provider");
    assert_eq!(app.unanswered_at_quit, None);
    assert!(app.events.iter().any(|e| e.level == Level::Done));
}

#[test]
fn a_second_quit_leaves_at_once_and_the_action_is_reported_unanswered() {
    let mut app = app();
    ch(&mut app, 'S');
    ch(&mut app, 'y');
    update(&mut app, Event::Key(KeyPress::ctrl('c')));
    assert!(!app.quit);
    ch(&mut app, 'q');
    assert!(app.quit);
    assert_eq!(app.unanswered_at_quit, Some(Action::Stop));

    let mut idle = self::app();
    ch(&mut idle, 'q');
    assert!(idle.quit, "with nothing in flight, q quits at once");
    assert_eq!(idle.unanswered_at_quit, None);
}

#[test]
fn a_ledger_problem_is_an_error_line_in_the_events() {
    let mut app = app();
    update(&mut app, Event::Ledger("disk full".into()));
    assert_eq!(
        last_log(&app),
        (Level::Error, "ledger: disk full".to_string())
    );
}

#[test]
fn keys_samples_inventories_and_resizes_always_draw_a_tick_in_the_same_second_does_not() {
    let mut app = app();
    let now = app.now;
    let inventory = app.cloud.inventory.clone().expect("the demo inventory");
    let events = [
        Event::Key(KeyPress::new(KeyCode::Char('x'))),
        Event::Resize,
        Event::Inventory(Ok(inventory)),
        Event::Fleet(Vec::new()),
    ];
    for event in events {
        app.dirty = false;
        let what = format!("{event:?}").chars().take(30).collect::<String>();
        update(&mut app, event);
        assert!(app.dirty, "{what}");
    }
    app.dirty = false;
    update(
        &mut app,
        Event::Tick(now + SignedDuration::from_millis(300)),
    );
    assert!(!app.dirty, "the same second shows nothing new");
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(1)));
    assert!(app.dirty, "a new second redraws the countdown");
}

#[test]
fn keys_that_expire_before_the_deadline_acts_are_warned_about_once_per_deadline() {
    let mut app = app();
    let deadline = app.deadline.as_mut().unwrap();
    deadline.on_expiry = OnExpiry::Release;
    let at = deadline.at;
    app.bell = false;
    let logged = app.logged;
    update(
        &mut app,
        Event::KeysExpire(at + SignedDuration::from_hours(1)),
    );
    assert_eq!(
        app.logged, logged,
        "keys that outlive the deadline say nothing"
    );
    update(
        &mut app,
        Event::KeysExpire(at - SignedDuration::from_mins(30)),
    );
    assert!(app.bell);
    let (level, text) = last_log(&app);
    assert_eq!(level, Level::Warn);
    assert!(
        text.contains("keys expire") && text.contains("release"),
        "{text}"
    );
    let logged = app.logged;
    let now = app.now;
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(1)));
    assert_eq!(app.logged, logged, "said once for this deadline");
    // Moved later still (`e`), the deadline is warned about again.
    ch(&mut app, 'e');
    update(
        &mut app,
        Event::Tick(now + SignedDuration::from_millis(1500)),
    );
    assert!(
        app.events
            .iter()
            .rev()
            .take(3)
            .any(|e| e.text.contains("keys expire")),
        "a moved deadline is warned about again"
    );
    // Alert only: nothing to act on, nothing to warn about.
    app.deadline.as_mut().unwrap().on_expiry = OnExpiry::Alert;
    let logged = app.logged;
    update(&mut app, Event::Tick(now + SignedDuration::from_secs(2)));
    assert_eq!(app.logged, logged);
}
