//! The linked-resources checklist: everything billed with the instance, whether it goes away
//! with it, and what each survivor costs per month after release. The total that keeps billing
//! sits in the bottom border in the leftover warning style.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, StatefulWidget, Table, TableState};

use super::paint;
use super::panel::Panel;
use super::text::{amount, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::App;
use crate::meter::ResourceKind;
use crate::provider::{LinkedResource, ProviderError, Severity};
use crate::t;

/// The columns in display order, with how much each matters (0 is always shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Mark,
    /// What of its data others can read: `!!` public, `!` shared or unencrypted.
    Exposed,
    Kind,
    Id,
    Name,
    Size,
    State,
    Fate,
    Monthly,
}

const COLUMNS: [(Col, u8); 9] = [
    (Col::Mark, 0),
    (Col::Exposed, 0),
    (Col::Kind, 0),
    (Col::Id, 0),
    (Col::Name, 4),
    (Col::Size, 1),
    (Col::State, 3),
    (Col::Fate, 2),
    (Col::Monthly, 0),
];

fn column_title(col: Col) -> Cow<'static, str> {
    match col {
        Col::Mark | Col::Exposed => Cow::Borrowed(""),
        Col::Kind => t!("resources-kind"),
        Col::Id => t!("resources-id"),
        Col::Name => t!("resources-name"),
        Col::Size => t!("resources-size"),
        Col::State => t!("resources-state"),
        Col::Fate => t!("resources-on-release"),
        Col::Monthly => t!("resources-per-month"),
    }
}

fn kind_label(kind: ResourceKind, short: bool) -> Cow<'static, str> {
    match (kind, short) {
        (ResourceKind::SystemDisk, true) => t!("kind-short-system-disk"),
        (ResourceKind::LoadBalancer, true) => t!("kind-short-load-balancer"),
        (ResourceKind::NetworkVolume, true) => t!("kind-short-network-volume"),
        (k, _) => k.shown(),
    }
}

pub fn render_resources(area: Rect, buf: &mut Buffer, app: &App, theme: &Theme, focused: bool) {
    let resources: &[LinkedResource] = app
        .cloud
        .inventory
        .as_ref()
        .map_or(&[], |i| i.resources.as_slice());
    let mut panel = Panel::new(theme.border(focused)).title(Span::styled(
        format!(" {} ", t!("panel-resources")),
        theme.style(Role::Title),
    ));
    if !resources.is_empty() {
        let n = resources.len();
        // Focused, the selected row's place; otherwise how many of them the rows show.
        let shown = usize::from(area.height.saturating_sub(2)).min(n);
        let position = if focused {
            format!(" {}/{n} ", app.selected_resource.min(n - 1) + 1)
        } else if shown < n {
            format!(" {} ", t!("resources-shown-of", shown = shown, n = n))
        } else {
            format!(" {n} ")
        };
        panel = panel
            .title(Line::styled(position, theme.style(Role::TextDim)).alignment(Alignment::Right));
    }
    if let Some(total) = super::leftover::leftover_title(app, usize::from(area.width), theme) {
        panel = panel.title_bottom(total);
    }
    let inner = panel.inner(area);
    panel.render(area, buf);
    let mut table_area = inner;
    if let Some(err) = &app.cloud.error {
        let used = render_error(inner, buf, err, theme);
        table_area.y = table_area.y.saturating_add(used);
        table_area.height = table_area.height.saturating_sub(used);
    }
    if resources.is_empty() {
        let text = if app.cloud.inventory.is_none() {
            t!("header-reading")
        } else {
            t!("resources-none")
        };
        paint::line(
            table_area,
            buf,
            &Line::styled(text, theme.style(Role::TextDim)),
        );
        return;
    }
    render_table(table_area, buf, app, resources, theme, focused);
}

/// Why the provider could not be read: its kind and what to fix first, on two rows where it
/// needs them, then (when the fix takes one) what the provider said. Returns the rows used.
fn render_error(area: Rect, buf: &mut Buffer, err: &ProviderError, theme: &Theme) -> u16 {
    let w = usize::from(area.width);
    let rows = if area.height < 4 { 1 } else { 2 };
    let fix = format!(
        "✗ {} {}: {}",
        err.provider(),
        err.kind_label(),
        err.shown_fix()
    );
    let mut lines: Vec<Line> = wrap(&fix, w.saturating_sub(2).max(8))
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let part = if i == 0 { part } else { format!("  {part}") };
            Line::styled(truncate(&part, w), theme.style(Role::AlertError))
        })
        .collect();
    if lines.len() > rows {
        lines.truncate(rows);
        if let Some(last) = lines.last_mut() {
            let text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
            *last = Line::styled(
                truncate(&format!("{text}…"), w),
                theme.style(Role::AlertError),
            );
        }
    }
    if lines.len() < rows {
        let said = truncate(&format!("  {}", err.shown()), w);
        lines.push(Line::styled(said, theme.style(Role::TextDim)));
    }
    let used = super::text::to_u16(lines.len());
    paint::lines(
        Rect {
            height: used.min(area.height),
            ..area
        },
        buf,
        &lines,
    );
    used
}

fn render_table(
    area: Rect,
    buf: &mut Buffer,
    app: &App,
    resources: &[LinkedResource],
    theme: &Theme,
    focused: bool,
) {
    let short = area.width < 60;
    let cells: Vec<Vec<(String, Style)>> = resources
        .iter()
        .map(|r| row_cells(app, r, short, theme))
        .collect();
    // Room for the header only when the panel is tall enough to list every row under it.
    let header = usize::from(area.height) > resources.len();
    let widths: Vec<usize> = COLUMNS
        .iter()
        .enumerate()
        .map(|(i, (col, _))| {
            let content = cells.iter().map(|c| width(&c[i].0)).max().unwrap_or(0);
            content.max(if header {
                width(&column_title(*col))
            } else {
                0
            })
        })
        .collect();
    let mut widths = widths;
    let shown = pick_columns(&widths, usize::from(area.width));
    // What still does not fit comes off the id, which then ends in "…": a cut id never reads
    // as another, real one.
    let used: usize = shown
        .iter()
        .map(|&i| widths[i] + 1)
        .sum::<usize>()
        .saturating_sub(1);
    if let Some(over) = used.checked_sub(usize::from(area.width)).filter(|o| *o > 0) {
        let id = COLUMNS.iter().position(|c| c.0 == Col::Id).unwrap_or(2);
        widths[id] = widths[id].saturating_sub(over).max(4);
    }
    let constraints: Vec<Constraint> = shown
        .iter()
        .map(|&i| Constraint::Length(super::text::to_u16(widths[i])))
        .collect();
    let rows: Vec<Row> = cells
        .into_iter()
        .map(|c| {
            Row::new(shown.iter().map(|&i| {
                let (text, style) = c[i].clone();
                let text = truncate(&text, widths[i]);
                let cell = if matches!(COLUMNS[i].0, Col::Size | Col::Monthly) {
                    Line::styled(text, style).alignment(Alignment::Right)
                } else {
                    Line::styled(text, style)
                };
                Cell::from(cell)
            }))
        })
        .collect();
    let mut table = Table::new(rows, constraints)
        .column_spacing(1)
        .row_highlight_style(theme.style(Role::Selected));
    if header {
        table = table.header(
            Row::new(shown.iter().map(|&i| {
                let line = Line::from(column_title(COLUMNS[i].0));
                Cell::from(if matches!(COLUMNS[i].0, Col::Size | Col::Monthly) {
                    line.alignment(Alignment::Right)
                } else {
                    line
                })
            }))
            .style(theme.style(Role::TextDim)),
        );
    }
    let mut state = TableState::default();
    if focused {
        state.select(Some(app.selected_resource.min(resources.len() - 1)));
    }
    StatefulWidget::render(table, area, buf, &mut state);
}

/// The columns to show: every column of priority 0, then the others by priority while the
/// width allows, in display order. A column with nothing in it (no finding to mark) is left
/// out.
fn pick_columns(widths: &[usize], max: usize) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..COLUMNS.len())
        .filter(|&i| COLUMNS[i].1 == 0 && widths[i] > 0)
        .collect();
    let used = |shown: &[usize]| shown.iter().map(|&i| widths[i] + 1).sum::<usize>();
    for priority in 1..=4 {
        for i in (0..COLUMNS.len()).filter(|&i| COLUMNS[i].1 == priority && widths[i] > 0) {
            if used(&shown) + widths[i] <= max {
                shown.push(i);
            }
        }
    }
    shown.sort_unstable();
    shown
}

fn row_cells(app: &App, r: &LinkedResource, short: bool, theme: &Theme) -> Vec<(String, Style)> {
    let text = theme.style(Role::Text);
    let dim = theme.style(Role::TextDim);
    let warn = theme.style(Role::LeftoverWarning);
    let size = if r.size_gib.is_zero() {
        ("—".to_string(), dim)
    } else {
        (format!("{} GiB", r.size_gib.round_dp(1).normalize()), text)
    };
    let (mark, fate, monthly) = if r.deleted_with_instance {
        (
            ("✓".to_string(), theme.style(Role::ActionOk)),
            (t!("resources-deleted").into_owned(), dim),
            ("—".to_string(), dim),
        )
    } else {
        let monthly = app
            .spend
            .reading
            .as_ref()
            .and_then(|reading| reading.leftovers.iter().find(|l| l.id == r.id))
            .map_or_else(
                || {
                    (
                        t!("resources-no-price").into_owned(),
                        theme.style(Role::AlertWarn),
                    )
                },
                |l| match l.monthly {
                    Some(m) => (amount(m), text),
                    None => (
                        t!("resources-no-price").into_owned(),
                        theme.style(Role::AlertWarn),
                    ),
                },
            );
        (
            ("!".to_string(), warn),
            (t!("resources-survives").into_owned(), warn),
            monthly,
        )
    };
    let exposed = match app.cloud.exposure_of(&r.id) {
        Some(Severity::Critical) => ("!!".to_string(), theme.style(Role::AlertError)),
        Some(Severity::Warning) => ("!".to_string(), theme.style(Role::AlertWarn)),
        None => (String::new(), dim),
    };
    vec![
        mark,
        exposed,
        (kind_label(r.kind, short).into_owned(), text),
        (r.id.clone(), text),
        (r.name.clone(), dim),
        size,
        (r.state.clone(), dim),
        fate,
        monthly,
    ]
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::app::{App, Event, update};
    use crate::demo::demo_app;
    use crate::provider::ProviderError;

    fn screen(app: &App, width: u16, height: u16) -> String {
        crate::ui::drawn(app, width, height).to_string()
    }

    fn refused_key() -> ProviderError {
        ProviderError::refused(
            "aws",
            "the credentials",
            &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
        )
        .with_call("ec2 DescribeInstances")
        .with_code("AuthFailure")
        .with_message("AWS was not able to validate the provided access credentials")
    }

    #[test]
    fn an_auth_error_names_the_credential_to_check() {
        let mut app = demo_app(Duration::from_secs(200 * 60));
        update(&mut app, Event::Inventory(Err(refused_key())));
        let wide = screen(&app, 160, 48);
        assert!(
            wide.contains(
                "✗ aws auth: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; AWS refused the credentials"
            ),
            "{wide}"
        );
        assert!(wide.contains("AuthFailure"), "{wide}");
        // The last good inventory stays listed under it.
        assert!(wide.contains("vol-0data"), "{wide}");
        // Narrow, what to fix takes both rows, and says it whole.
        let narrow = screen(&app, 80, 24);
        assert!(
            narrow.contains("✗ aws auth: check AWS_ACCESS_KEY_ID and"),
            "{narrow}"
        );
        assert!(
            narrow.contains("AWS_SECRET_ACCESS_KEY; AWS refused the"),
            "{narrow}"
        );
    }

    #[test]
    fn a_permission_error_names_the_action_the_key_lacks() {
        let mut app = demo_app(Duration::from_secs(200 * 60));
        let denied = ProviderError::permission("aws", Some("ec2:DescribeVolumes"))
            .with_call("ec2 DescribeVolumes")
            .with_code("UnauthorizedOperation");
        update(&mut app, Event::Inventory(Err(denied)));
        let wide = screen(&app, 160, 48);
        assert!(
            wide.contains("✗ aws permission: the key lacks ec2:DescribeVolumes; grant it in IAM"),
            "{wide}"
        );
    }

    #[test]
    fn a_read_error_and_its_fix_are_in_the_users_language() {
        use crate::i18n::{Lang, scoped};
        let mut app = demo_app(Duration::from_secs(200 * 60));
        update(&mut app, Event::Inventory(Err(refused_key())));
        let chinese = scoped(Lang::ZhCn, || screen(&app, 160, 48));
        assert!(
            chinese.contains("✗ aws auth: 请检查 AWS_ACCESS_KEY_ID"),
            "{chinese}"
        );
        assert!(!chinese.contains("check AWS_ACCESS_KEY_ID"), "{chinese}");
    }
}
