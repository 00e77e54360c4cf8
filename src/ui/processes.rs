//! The process view (`p`): every process holding a GPU, with its user, GPU memory and command.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Row, Table, Widget as _};

use super::paint;
use super::text::{gib, na, to_u16, truncate};
use super::theme::{Role, Theme};
use crate::t;
use crate::telemetry::{GpuProcess, GpuReading, Metric};

pub fn render_processes(area: Rect, buf: &mut Buffer, reading: &GpuReading, theme: &Theme) {
    let text = theme.style(Role::Text);
    let dim = theme.style(Role::TextDim);
    let mut procs: Vec<(u32, &GpuProcess)> = Vec::new();
    let mut missing: Vec<Line<'static>> = Vec::new();
    for g in &reading.gpus {
        match &g.processes {
            Metric::Value(list) => procs.extend(list.iter().map(|p| (g.index, p))),
            Metric::Unavailable(why) => missing.push(Line::from(vec![
                ratatui::text::Span::styled(
                    format!("{} ", t!("processes-of-gpu", index = g.index)),
                    dim,
                ),
                na(theme),
                ratatui::text::Span::styled(format!(" ({why})"), dim),
            ])),
        }
    }
    procs.sort_by_key(|(gpu, p)| (*gpu, std::cmp::Reverse(p.used_mem_mib.get()), p.pid));
    if procs.is_empty() && missing.is_empty() {
        let line = Line::styled(t!("processes-none"), dim);
        paint::line(area, buf, &line);
        return;
    }
    let right = |s: String| Cell::from(Line::from(s).alignment(Alignment::Right));
    // What the fixed columns and the gaps between the five leave the command: cut with "…".
    let command_w = usize::from(area.width).saturating_sub(3 + 7 + 10 + 9 + 4);
    let rows: Vec<Row> = procs
        .iter()
        .map(|(gpu, p)| {
            let mem = match p.used_mem_mib.get() {
                Some(m) => right(format!("{} GiB", gib(m))).style(text),
                None => Cell::from(Line::from(na(theme)).alignment(Alignment::Right)),
            };
            let command = p
                .cmdline
                .clone()
                .or_else(|| p.name.clone())
                .unwrap_or_else(|| t!("processes-other-namespace").into_owned());
            Row::new(vec![
                right(gpu.to_string()).style(text),
                right(p.pid.to_string()).style(text),
                Cell::from(truncate(p.user.as_deref().unwrap_or("?"), 10)).style(dim),
                mem,
                Cell::from(truncate(&command, command_w)).style(text),
            ])
        })
        .collect();
    let header = Row::new(vec![
        right("GPU".into()),
        right("PID".into()),
        Cell::from(t!("processes-user")),
        right(t!("processes-gpu-mem").into_owned()),
        Cell::from(t!("processes-command")),
    ])
    .style(dim);
    let widths = [
        Constraint::Length(3),
        Constraint::Length(7),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Fill(1),
    ];
    let table_height = to_u16(rows.len() + 1);
    let [table_area, rest] = area.layout(&ratatui::layout::Layout::vertical([
        Constraint::Max(table_height),
        Constraint::Fill(1),
    ]));
    Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .render(table_area, buf);
    paint::lines(rest, buf, &missing);
}
