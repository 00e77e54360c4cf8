//! The fleet screen (`F`): this instance beside every instance of the config's `[[fleet]]`
//! accounts, read as `gpumeter fleet` reads them, with burn rate, uptime, deadline and what each
//! leaves billing after release, the most expensive first; forgotten, idle, overlapping and
//! left-over instances flagged. A line at the foot says how old the reading is.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, Table, Widget as _};

use super::paint;
use super::panel::Panel;
use super::text::{amount, truncate};
use super::theme::{Role, Theme};
use super::words;
use crate::app::App;
use crate::fleet::table::span;
use crate::fleet::{Flag, FleetRow, Origin, Reporting, flag, render_account, row, sort_by_cost};
use crate::spend::Recorded;
use crate::t;

/// The rows the screen shows: `app.fleet` and this instance, once. This instance's row comes
/// from the cockpit's own state (its latest inventory, its pricing, its GPUs read here); where
/// `app.fleet` lists it too, that row gives way, leaving its account and what it reported.
pub fn fleet_rows(app: &App) -> Vec<FleetRow> {
    let mut rows = app.fleet.clone();
    if let Some(inventory) = &app.cloud.inventory {
        let id = inventory
            .instance
            .as_ref()
            .map_or_else(String::new, |i| i.id.clone());
        // An account's row of orphans has no instance id: it is never this instance's.
        let (listed, others): (Vec<_>, Vec<_>) = rows
            .into_iter()
            .partition(|r| !id.is_empty() && r.origin.instance_id == id);
        rows = others;
        let listed = listed.into_iter().next();
        let origin = Origin {
            account: listed
                .as_ref()
                .map_or_else(String::new, |r| r.origin.account.clone()),
            provider: app.cloud.provider.clone(),
            region: inventory.instance.as_ref().and_then(|i| i.region.clone()),
            instance_id: id,
        };
        let here = Reporting {
            here: matches!(app.telemetry.gpus, Some(Ok(_))),
            ..listed.map_or_else(Reporting::default, |r| r.reporting)
        };
        let pricing = app.spend.pricing.as_ref();
        // The cockpit's own row is its account, as its cost panel shows it.
        let mut own = row(
            origin,
            Ok((inventory, &Recorded::default())),
            pricing,
            here,
            app.now,
        );
        if let Some(account) = app.spend.account() {
            render_account(&mut own, &account);
        }
        rows.push(own);
    }
    flag(&mut rows);
    sort_by_cost(&mut rows);
    rows
}

/// The line at the foot: what is read, and how long ago; or how to read more.
pub fn fleet_status(app: &App) -> String {
    let link = &app.fleet_link;
    if link.accounts == 0 {
        return t!("fleet-how-to-add").into_owned();
    }
    // Once read, the instances are those the accounts' listings found, the named ones among them.
    let instances = if link.read_at.is_some() {
        app.fleet
            .iter()
            .filter(|r| !r.origin.instance_id.is_empty())
            .count()
    } else {
        link.instances
    };
    // Accounts listed by API have no count until they are read.
    let what = if link.read_at.is_none() && instances == 0 {
        t!("fleet-accounts", count = link.accounts)
    } else {
        t!(
            "fleet-accounts-instances",
            accounts = link.accounts,
            instances = instances
        )
    };
    match (link.read_at, link.reading) {
        (None, true) => t!("fleet-reading", what = what),
        (None, false) => t!("fleet-not-read", what = what),
        (Some(at), reading) => {
            let age = app.now.duration_since(at).as_secs().max(0);
            let ago = if age < 60 {
                t!("fleet-seconds-ago", seconds = age)
            } else {
                t!("fleet-ago", span = span(age))
            };
            let read = t!("fleet-read", what = what, ago = ago);
            if reading {
                format!("{read} · {}", t!("fleet-reading-again"))
            } else {
                read
            }
        }
    }
}

fn flag_style(flag: Flag, theme: &Theme) -> Style {
    match flag {
        Flag::Forgotten | Flag::Unreachable => theme.style(Role::AlertError),
        Flag::Idle | Flag::Overlap | Flag::Unpriced => theme.style(Role::AlertWarn),
        Flag::Leftovers => theme.style(Role::LeftoverWarning),
    }
}

/// An amount, `≥` before it when `unknown` lines are left out of it; `—` when unknown.
fn money(value: Option<rust_decimal::Decimal>, unknown: usize) -> String {
    match (value, unknown) {
        (None, _) => "—".to_string(),
        (Some(v), 0) => amount(v),
        (Some(v), _) => format!("≥{}", amount(v)),
    }
}

pub fn render_fleet(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme) {
    let rows = fleet_rows(app);
    let currency = rows
        .iter()
        .find_map(|r| r.currency.clone())
        .unwrap_or_default();
    let title = format!(" {} ", t!("fleet-title", count = rows.len()));
    let panel = Panel::new(theme.border(true))
        .title(Span::styled(title, theme.style(Role::Title)))
        .title_bottom(Line::from(vec![
            Span::styled(" F", theme.style(Role::HelpKey)),
            Span::styled(format!(" {} ", t!("help-or")), theme.style(Role::TextDim)),
            Span::styled("Esc", theme.style(Role::HelpKey)),
            Span::styled(
                format!(" {} ", t!("fleet-back")),
                theme.style(Role::TextDim),
            ),
        ]));
    let dim = theme.style(Role::TextDim);
    let inner = panel.inner(area);
    panel.render(area, buf);
    let [table_area, status_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
    Line::styled(fleet_status(app), dim).render(status_area, buf);
    if rows.is_empty() {
        let text = Line::styled(t!("fleet-no-instance"), dim);
        paint::line(table_area, buf, &text);
        return;
    }
    // The account leads where `[[fleet]]` names any.
    let accounts = rows.iter().any(|r| !r.origin.account.is_empty());
    let lead = usize::from(!accounts);
    let header = Row::new(
        [
            t!("fleet-account"),
            t!("fleet-instance"),
            t!("fleet-name"),
            t!("fleet-state"),
            format!("{currency}/h").into(),
            t!("fleet-up"),
            t!("fleet-deadline"),
            t!("fleet-left-per-month"),
            t!("fleet-flags"),
        ]
        .map(Cell::from)
        .into_iter()
        .skip(lead),
    )
    .style(dim);
    let lines = rows.iter().map(|r| table_row(r, lead, theme));
    let widths = [
        Constraint::Length(10),
        Constraint::Length(20),
        Constraint::Length(16),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Length(7),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Fill(1),
    ];
    let widths = widths.into_iter().skip(lead);
    Table::new(lines, widths)
        .header(header)
        .render(table_area, buf);
}

/// One instance's row, the account left out when `lead` is 1.
fn table_row<'a>(r: &'a FleetRow, lead: usize, theme: &Theme) -> Row<'a> {
    let flags: Vec<Span> = r
        .flags
        .iter()
        .flat_map(|f| {
            [
                Span::styled(f.shown(), flag_style(*f, theme)),
                Span::raw(" "),
            ]
        })
        .collect();
    let burn = if r.running() {
        money(r.burn_per_hour, r.burn_unknown.len())
    } else {
        "—".into()
    };
    let account = if r.origin.account.is_empty() {
        "—"
    } else {
        r.origin.account.as_str()
    };
    let cells = vec![
        Cell::from(truncate(account, 10)),
        Cell::from(truncate(&r.origin.instance_id, 20)),
        Cell::from(truncate(r.name.as_deref().unwrap_or("—"), 16)),
        Cell::from(words::fleet_state(r)),
        Cell::from(Line::from(burn).right_aligned()),
        Cell::from(r.uptime_s.map_or_else(|| "—".into(), span)),
        Cell::from(
            r.deadline_remaining_s
                .map_or_else(|| "—".into(), |s| t!("fleet-in", span = span(s))),
        ),
        Cell::from(Line::from(money(r.leftover_monthly, r.leftover_unknown.len())).right_aligned()),
        Cell::from(Line::from(flags)),
    ];
    Row::new(cells.into_iter().skip(lead)).style(theme.style(Role::Text))
}
