//! The fleet screen (`F`): this instance beside every other one the cockpit knows of, with
//! burn rate, uptime, deadline and what each leaves billing after release, the most expensive
//! first; forgotten, idle, overlapping and left-over instances flagged. `gpumeter fleet` reads
//! every configured account; the screen shows what this cockpit holds.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Padding, Paragraph, Row, Table};

use super::text::{amount, truncate};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::fleet::table::{span, state_label};
use crate::fleet::{Flag, FleetRow, Origin, Reporting, flag, row, sort_by_cost};

/// The rows the screen shows: this instance (from the cockpit's own state) and `app.fleet`.
pub fn fleet_rows(app: &App) -> Vec<FleetRow> {
    let mut rows = app.fleet.clone();
    if let Some(inventory) = &app.cloud.inventory {
        let id = inventory
            .instance
            .as_ref()
            .map_or_else(String::new, |i| i.id.clone());
        if !rows.iter().any(|r| r.origin.instance_id == id) {
            let origin = Origin {
                account: String::new(),
                provider: app.cloud.provider.clone(),
                region: inventory.instance.as_ref().and_then(|i| i.region.clone()),
                instance_id: id,
            };
            let here = Reporting {
                here: matches!(app.telemetry.gpus, Some(Ok(_))),
                ..Reporting::default()
            };
            let pricing = app.spend.pricing.clone();
            rows.push(row(origin, Ok(inventory), pricing, here, app.now));
        }
    }
    flag(&mut rows);
    sort_by_cost(&mut rows);
    rows
}

fn flag_style(flag: Flag, theme: &Theme) -> Style {
    match flag {
        Flag::Forgotten | Flag::Unreachable => theme.style(Role::AlertError),
        Flag::Idle | Flag::Overlap | Flag::Unpriced => theme.style(Role::AlertWarn),
        Flag::Leftovers => theme.style(Role::LeftoverWarning),
    }
}

fn money(value: Option<rust_decimal::Decimal>) -> String {
    value.map_or_else(|| "—".to_string(), amount)
}

pub fn render_fleet(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let rows = fleet_rows(app);
    let currency = rows
        .iter()
        .find_map(|r| r.currency.clone())
        .unwrap_or_default();
    let title = format!(" Fleet · {} · most expensive first ", rows.len());
    let block = Block::bordered()
        .border_style(theme.border(true))
        .padding(Padding::horizontal(1))
        .title(Span::styled(title, theme.style(Role::Title)))
        .title_bottom(Line::from(vec![
            Span::styled(" F", theme.style(Role::HelpKey)),
            Span::styled(" or ", theme.style(Role::TextDim)),
            Span::styled("Esc", theme.style(Role::HelpKey)),
            Span::styled(
                " back · gpumeter fleet reads every account ",
                theme.style(Role::TextDim),
            ),
        ]));
    if rows.is_empty() {
        let text = Paragraph::new(Line::styled(
            "no instance yet: waiting for the provider",
            theme.style(Role::TextDim),
        ))
        .block(block);
        frame.render_widget(text, area);
        return;
    }
    let dim = theme.style(Role::TextDim);
    let header = Row::new(
        [
            "instance",
            "name",
            "state",
            &format!("{currency}/h"),
            "up",
            "deadline",
            "left/mo",
            "flags",
        ]
        .map(|h| Cell::from(h.to_string())),
    )
    .style(dim);
    let lines = rows.iter().map(|r| {
        let flags: Vec<Span> = r
            .flags
            .iter()
            .flat_map(|f| {
                [
                    Span::styled(f.label(), flag_style(*f, theme)),
                    Span::raw(" "),
                ]
            })
            .collect();
        let burn = if r.running() {
            money(r.burn_per_hour)
        } else {
            "—".into()
        };
        Row::new(vec![
            Cell::from(truncate(&r.origin.instance_id, 20)),
            Cell::from(truncate(r.name.as_deref().unwrap_or("—"), 16)),
            Cell::from(state_label(r)),
            Cell::from(Line::from(burn).right_aligned()),
            Cell::from(r.uptime_s.map_or_else(|| "—".into(), span)),
            Cell::from(
                r.deadline_remaining_s
                    .map_or_else(|| "—".into(), |s| format!("in {}", span(s))),
            ),
            Cell::from(Line::from(money(r.leftover_monthly)).right_aligned()),
            Cell::from(Line::from(flags)),
        ])
        .style(theme.style(Role::Text))
    });
    let widths = [
        Constraint::Length(20),
        Constraint::Length(16),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Length(7),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Fill(1),
    ];
    frame.render_widget(Table::new(lines, widths).header(header).block(block), area);
}
