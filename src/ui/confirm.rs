//! The confirmation a destructive key opens: the target and its cost per hour, what will be
//! deleted, what survives with its monthly cost, and the choice, with "cancel" the default.
//! `y` confirms; the lists shorten when the screen is small, but the choice always shows.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget as _};

use super::text::{amount, centered, to_u16, truncate, width, wrap};
use super::theme::{Role, Theme};
use crate::app::{Choice, Confirm, ConfirmLine, PickRow, SnapshotPick};
use crate::provider::Action;
use crate::t;
use gpumeter_core::cell::Cell;

/// The widest the dialog grows.
const MAX_WIDTH: usize = 76;

pub fn render_confirm(area: Rect, buf: &mut Buffer, c: &Confirm, theme: &Theme) {
    let w = usize::from(area.width).saturating_sub(4).min(MAX_WIDTH - 4);
    let dim = theme.style(Role::TextDim);
    let text = theme.style(Role::Text);
    let currency = c.currency.map(|c| format!(" {c}")).unwrap_or_default();
    let mut head = vec![
        Line::from(vec![
            Span::styled(format!("{:<9}", Cell(t!("confirm-target"))), dim),
            Span::styled(
                truncate(&c.target, w.saturating_sub(9)),
                theme.style(Role::Title),
            ),
        ]),
        Line::from(vec![
            Span::styled(format!("{:<9}", Cell(t!("confirm-costs"))), dim),
            match c.cost_per_hour {
                Some(m) => Span::styled(t!("confirm-per-hour-now", amount = m.to_string()), text),
                None => Span::styled(t!("confirm-no-sheet"), theme.style(Role::NA)),
            },
        ]),
    ];
    let mut note: Vec<Line<'static>> = wrap(&c.note, w)
        .into_iter()
        .map(|l| Line::styled(l, text))
        .collect();
    // Data others can read, one line each, so a public snapshot is not released past unseen.
    note.extend(c.exposed.iter().map(|l| {
        let role = if l.starts_with("CRITICAL") {
            Role::AlertError
        } else {
            Role::AlertWarn
        };
        Line::styled(truncate(l, w), theme.style(role))
    }));
    let buttons = buttons(c, theme);
    let mut keys = Vec::new();
    if c.pick.is_some() {
        keys.extend([
            Span::styled("Space", theme.style(Role::HelpKey)),
            Span::styled(format!(" {} · ", t!("confirm-picks")), dim),
        ]);
    }
    keys.extend([
        Span::styled("y", theme.style(Role::HelpKey)),
        Span::styled(format!(" {} · ", t!("confirm-confirms")), dim),
        Span::styled("Esc", theme.style(Role::HelpKey)),
        Span::styled("/", dim),
        Span::styled("n", theme.style(Role::HelpKey)),
        Span::styled(format!(" {} · ", t!("confirm-cancels")), dim),
        Span::styled("← →", theme.style(Role::HelpKey)),
        Span::styled(format!(" {}", t!("confirm-choose")), dim),
    ]);
    let keys = Line::from(keys).alignment(Alignment::Center);
    // Fixed lines: head, blank, note, blank, buttons, keys; the lists get what is left.
    let fixed = head.len() + 1 + note.len() + 1 + 2;
    let room = usize::from(area.height).saturating_sub(2 + fixed);
    let mut lists = match &c.pick {
        Some(pick) => pick_lines(pick, &currency, w, room, theme),
        None => lists(c, &currency, w, room, theme),
    };
    let mut lines = Vec::new();
    lines.append(&mut head);
    lines.push(Line::raw(""));
    lines.append(&mut lists);
    lines.append(&mut note);
    fit_body(
        &mut lines,
        usize::from(area.height).saturating_sub(2 + 3),
        dim,
    );
    lines.push(Line::raw(""));
    lines.push(buttons);
    lines.push(keys);
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0).max(40);
    let popup = centered(area, to_u16(content_w + 4), to_u16(lines.len() + 2));
    let block = Block::bordered()
        .border_style(theme.style(Role::DialogBorder))
        .title(Span::styled(
            format!(" {} ", super::words::confirm_title(c)),
            theme.style(Role::DialogDanger),
        ));
    super::text::clear_popup(popup, buf);
    Paragraph::new(lines)
        .block(block.padding(ratatui::widgets::Padding::horizontal(1)))
        .render(popup, buf);
}

/// Cuts the body to `room` lines so the choice and its keys always show: blank lines go
/// first, then the end, with a line that says how much is not shown.
fn fit_body(lines: &mut Vec<Line<'static>>, room: usize, dim: Style) {
    if lines.len() <= room {
        return;
    }
    let mut first = true;
    lines.retain(|l| {
        let keep = first || l.width() > 0;
        first = false;
        keep
    });
    if lines.len() <= room {
        return;
    }
    let cut = lines.len() + 1 - room.max(1);
    lines.truncate(room.saturating_sub(1));
    lines.push(Line::styled(t!("confirm-more-lines", count = cut), dim));
}

fn buttons(c: &Confirm, theme: &Theme) -> Line<'static> {
    let chosen = theme.style(Role::Selected);
    let plain = theme.style(Role::Text);
    let (cancel, confirm) = match c.choice {
        Choice::Cancel => (chosen, plain),
        Choice::Confirm => (plain, theme.style(Role::DialogDanger)),
    };
    let verb = super::words::verb(&c.action);
    Line::from(vec![
        Span::styled(format!("[ {} ]", t!("confirm-cancel")), cancel),
        Span::raw("     "),
        Span::styled(format!("[ {verb} ]"), confirm),
    ])
    .alignment(Alignment::Center)
}

/// The "deleted" and "survives" lists in at most `room` lines: the longer list gives way
/// first, down to one item and "… and N more".
fn lists(c: &Confirm, currency: &str, w: usize, room: usize, theme: &Theme) -> Vec<Line<'static>> {
    let dim = theme.style(Role::TextDim);
    let warn = theme.style(Role::LeftoverWarning);
    let items = [c.deleted.as_slice(), c.survivors.as_slice()];
    // A list takes its title, its items, "… more" when cut, the survivors' total and a blank.
    let lines = |i: usize, shown: usize| {
        let n = items[i].len();
        if n == 0 {
            0
        } else {
            2 + shown + usize::from(shown < n) + i
        }
    };
    let mut shown = [items[0].len(), items[1].len()];
    while lines(0, shown[0]) + lines(1, shown[1]) > room {
        let i = usize::from(shown[1] > shown[0]);
        if shown[i] <= 1 {
            break;
        }
        shown[i] -= 1;
    }
    let mut out = Vec::new();
    let (kept, total_label) = match c.action {
        Action::Stop => (t!("confirm-kept-stop"), t!("confirm-total-stop")),
        Action::Start => (t!("confirm-kept-start"), t!("confirm-total-start")),
        Action::SnapshotClean { .. } => (
            t!("confirm-kept-snapshot-clean"),
            t!("confirm-total-snapshot-clean"),
        ),
        Action::Cleanup { .. } => (t!("confirm-kept-cleanup"), t!("confirm-total-cleanup")),
        Action::Release | Action::SetDeadline { .. } => {
            (t!("confirm-kept-release"), t!("confirm-total-release"))
        }
    };
    for (i, title) in [t!("confirm-deleted"), kept].iter().enumerate() {
        if items[i].is_empty() {
            continue;
        }
        let per_month = if i == 1 {
            t!("confirm-per-month")
        } else {
            t!("confirm-saves-per-month")
        };
        out.push(Line::from(vec![
            Span::styled(title.to_string(), dim),
            Span::raw(" ".repeat(w.saturating_sub(width(title) + width(&per_month)))),
            Span::styled(per_month, dim),
        ]));
        let style = if i == 1 { theme.style(Role::Text) } else { dim };
        for item in &items[i][..shown[i]] {
            out.push(item_line(item, currency, w, style, theme));
        }
        if shown[i] < items[i].len() {
            out.push(Line::styled(
                format!(
                    "  {}",
                    t!("confirm-and-more", count = items[i].len() - shown[i])
                ),
                dim,
            ));
        }
        if i == 1 {
            // A total with an unpriced line in it is a lower bound, never the sum read as whole.
            let total = Confirm::monthly_text(c.survivors_monthly().as_ref());
            let label = format!("  {total_label}");
            let gap = w.saturating_sub(width(&label) + width(&total));
            out.push(Line::from(vec![
                Span::styled(label, warn),
                Span::raw(" ".repeat(gap)),
                Span::styled(total, warn),
            ]));
        }
        out.push(Line::raw(""));
    }
    out
}

/// The snapshots to pick from in at most `room` lines: a title, a row each (the cursor's row
/// always among those shown, the rest counted), what the pick deletes and what it keeps.
fn pick_lines(
    pick: &SnapshotPick,
    currency: &str,
    w: usize,
    room: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let dim = theme.style(Role::TextDim);
    let mut out = Vec::new();
    if pick.rows.is_empty() {
        out.push(Line::styled(t!("confirm-no-snapshots"), dim));
        out.push(Line::raw(""));
        return out;
    }
    // Title, totals and a blank take three lines; a "more" line when the rows are cut.
    let n = pick.rows.len();
    let fits = room.saturating_sub(3).max(1);
    let shown = if n <= fits {
        n
    } else {
        fits.saturating_sub(1).max(1)
    };
    let first = pick
        .cursor
        .saturating_sub(shown.saturating_sub(1))
        .min(n - shown);
    let tails: Vec<String> = pick.rows.iter().map(|r| tail(r, currency)).collect();
    let cols = PickCols::new(pick, &tails, w);
    // The header over the same columns: the age over the ages, the price at the right.
    let lead = cols.lead();
    let title = t!("confirm-pick-title");
    let age_w = cols.age;
    let per_month = t!("confirm-per-month");
    let gap = w.saturating_sub(lead.max(width(&title)) + age_w + width(&per_month));
    out.push(Line::from(vec![
        Span::styled(format!("{:lead$}", Cell(title)), dim),
        Span::styled(format!("{:>age_w$}", Cell(t!("confirm-age"))), dim),
        Span::raw(" ".repeat(gap)),
        Span::styled(per_month, dim),
    ]));
    for (i, row) in pick.rows.iter().enumerate().skip(first).take(shown) {
        out.push(pick_row(row, i == pick.cursor, &cols, &tails[i], w, theme));
    }
    if shown < n {
        out.push(Line::styled(
            format!("  {}", t!("confirm-more-scroll", count = n - shown)),
            dim,
        ));
    }
    let (gone, saved) = pick.total(true);
    let (kept, kept_monthly) = pick.total(false);
    let deletes = t!(
        "confirm-pick-deletes",
        count = gone,
        amount = format!("{}{currency}", amount(saved))
    );
    let keeps = t!(
        "confirm-pick-keeps",
        count = kept,
        amount = format!("{}{currency}", amount(kept_monthly))
    );
    let text = theme.style(Role::Text);
    let warn = theme.style(Role::LeftoverWarning);
    if width(&deletes) + width(&keeps) + 3 <= w {
        out.push(Line::from(vec![
            Span::styled(deletes, text),
            Span::styled(" · ", dim),
            Span::styled(keeps, warn),
        ]));
    } else {
        out.push(Line::styled(deletes, text));
        out.push(Line::styled(keeps, warn));
    }
    out.push(Line::raw(""));
    out
}

/// The widths of a pick's columns; the names are left out when they do not fit.
struct PickCols {
    id: usize,
    name: Option<usize>,
    size: usize,
    age: usize,
}

impl PickCols {
    fn new(pick: &SnapshotPick, tails: &[String], w: usize) -> PickCols {
        let col = |f: &dyn Fn(&PickRow) -> usize| pick.rows.iter().map(f).max().unwrap_or(0);
        let id = col(&|r| width(&r.resource.id));
        let name = col(&|r| width(&r.resource.name));
        let size_w = col(&|r| width(&size(r)));
        let age = col(&|r| width(&r.age)).max(3);
        let tail = tails.iter().map(|t| width(t)).max().unwrap_or(0);
        // Cursor and box, then id, name, size, age and the price or why it is locked.
        let fixed = 6 + size_w + 1 + age + 2 + tail;
        if fixed + id + 1 + name < w {
            PickCols {
                id,
                name: Some(name),
                size: size_w,
                age,
            }
        } else {
            PickCols {
                id: id.min(w.saturating_sub(fixed + 1)).max(4),
                name: None,
                size: size_w,
                age,
            }
        }
    }

    /// Where the age column starts.
    fn lead(&self) -> usize {
        6 + self.id + 1 + self.name.map_or(0, |n| n + 1) + self.size + 1
    }
}

fn pick_row(
    row: &PickRow,
    here: bool,
    cols: &PickCols,
    tail: &str,
    w: usize,
    theme: &Theme,
) -> Line<'static> {
    let mark = match (row.locked.is_some(), row.picked) {
        (true, _) => "[-]",
        (false, true) => "[x]",
        (false, false) => "[ ]",
    };
    let style = if row.locked.is_some() {
        theme.style(Role::TextDim)
    } else if row.picked {
        theme.style(Role::DialogDanger)
    } else {
        theme.style(Role::Text)
    };
    let id_w = cols.id;
    let mut line = format!(
        "{}{mark} {:id_w$} ",
        if here { "▸ " } else { "  " },
        truncate(&row.resource.id, id_w)
    );
    if let Some(name_w) = cols.name {
        let _ = write!(line, "{:name_w$} ", row.resource.name);
    }
    let (size_w, age_w) = (cols.size, cols.age);
    let _ = write!(line, "{:>size_w$} {:>age_w$}  ", size(row), row.age);
    let pad = w.saturating_sub(width(&line) + width(tail));
    let tail_style = if row.locked.is_some() {
        theme.style(Role::AlertInfo)
    } else if row.monthly.is_none() {
        theme.style(Role::AlertWarn)
    } else {
        style
    };
    let mut spans = vec![
        Span::styled(line, style),
        Span::raw(" ".repeat(pad)),
        Span::styled(tail.to_string(), tail_style),
    ];
    if here {
        for span in &mut spans {
            span.style = span.style.patch(theme.style(Role::Selected));
        }
    }
    Line::from(spans)
}

fn size(row: &PickRow) -> String {
    let gib = row.resource.size_gib;
    if gib.is_zero() {
        "—".into()
    } else {
        format!("{} GiB", gib.round_dp(1).normalize())
    }
}

/// The price a row saves a month, or why it cannot be picked; "newest" beside a kept one.
fn tail(row: &PickRow, currency: &str) -> String {
    if let Some(why) = &row.locked {
        return why.clone();
    }
    let price = row.monthly.map_or_else(
        || t!("resources-no-price").into_owned(),
        |m| format!("{}{currency}", amount(m)),
    );
    if row.newest && !row.picked {
        format!("{}  {price}", t!("confirm-newest"))
    } else {
        price
    }
}

fn item_line(
    item: &ConfirmLine,
    currency: &str,
    w: usize,
    style: Style,
    theme: &Theme,
) -> Line<'static> {
    let (price, price_style) = match item.monthly {
        Some(m) => (format!("{}{currency}", amount(m)), style),
        None => (
            t!("resources-no-price").into_owned(),
            theme.style(Role::AlertWarn),
        ),
    };
    let label_w = w.saturating_sub(width(&price) + 3);
    let label = truncate(&item.label, label_w);
    Line::from(vec![
        Span::styled(format!("  {label}"), style),
        Span::raw(" ".repeat(w.saturating_sub(2 + width(&label) + width(&price)))),
        Span::styled(price, price_style),
    ])
}
