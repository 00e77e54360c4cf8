//! The ui's own drawing is ratatui's, cell for cell: the line painter draws what `Paragraph`
//! draws without wrapping (ASCII, wide and zero-width characters, control characters, lines too
//! long for the area, every alignment), and a panel what a bordered, padded `Block` with the
//! same titles draws.

use gpumeter::ui::paint;
use gpumeter::ui::panel::Panel;
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget as _};

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,12}",
        Just("█▊·".to_string()),
        Just("80°C — ✓".to_string()),
        Just("世界".to_string()),
        Just("e\u{301}".to_string()),
        Just("\u{200b}".to_string()),
        Just("a\tb\r\nc\u{7f}".to_string()),
        Just("\u{1F600}".to_string()),
    ]
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::default()),
        Just(Style::new().fg(Color::Red)),
        Just(Style::new().bg(Color::Blue).add_modifier(Modifier::BOLD)),
        Just(Style::new().remove_modifier(Modifier::BOLD)),
    ]
}

fn line() -> impl Strategy<Value = Line<'static>> {
    let alignment = prop_oneof![
        Just(None),
        Just(Some(Alignment::Left)),
        Just(Some(Alignment::Center)),
        Just(Some(Alignment::Right)),
    ];
    (
        prop::collection::vec((piece(), style()), 0..5),
        style(),
        alignment,
    )
        .prop_map(|(spans, style, alignment)| {
            let spans: Vec<Span<'static>> = spans
                .into_iter()
                .map(|(text, style)| Span::styled(text, style))
                .collect();
            let line = Line::from(spans).style(style);
            match alignment {
                Some(a) => line.alignment(a),
                None => line,
            }
        })
}

/// A buffer with something in every cell, so a cell the painter leaves alone shows.
fn canvas() -> Buffer {
    let area = Rect::new(0, 0, 24, 6);
    let mut buf = Buffer::empty(area);
    for y in 0..area.height {
        buf.set_string(0, y, "x".repeat(24), Style::new().fg(Color::Green));
    }
    buf
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn paints_what_a_paragraph_renders(
        lines in prop::collection::vec(line(), 0..8),
        x in 0u16..24,
        y in 0u16..6,
        width in 0u16..30,
        height in 0u16..8,
    ) {
        let area = Rect::new(x, y, width, height);
        let mut expected = canvas();
        Paragraph::new(lines.clone()).render(area, &mut expected);
        let mut painted = canvas();
        paint::lines(area, &mut painted, &lines);
        prop_assert_eq!(painted, expected);
    }

    #[test]
    fn a_panel_is_a_bordered_padded_block(
        top in prop::collection::vec((line(), any::<bool>()), 0..4),
        bottom in prop::collection::vec((line(), any::<bool>()), 0..4),
        border in style(),
        x in 0u16..24,
        y in 0u16..6,
        width in 0u16..30,
        height in 0u16..8,
    ) {
        let side = |(line, right): (Line<'static>, bool)| {
            if right { line.alignment(Alignment::Right) } else { line.left_aligned() }
        };
        let top: Vec<Line<'static>> = top.into_iter().map(side).collect();
        let bottom: Vec<Line<'static>> = bottom.into_iter().map(side).collect();
        let mut block = Block::bordered().border_style(border).padding(Padding::horizontal(1));
        let mut panel = Panel::new(border);
        for title in &top {
            block = block.title(title.clone());
            panel = panel.title(title.clone());
        }
        for title in &bottom {
            block = block.title_bottom(title.clone());
            panel = panel.title_bottom(title.clone());
        }
        let area = Rect::new(x, y, width, height);
        prop_assert_eq!(panel.inner(area), block.inner(area));
        let mut expected = canvas();
        block.render(area, &mut expected);
        let mut drawn = canvas();
        panel.render(area, &mut drawn);
        prop_assert_eq!(drawn, expected);
    }
}

#[test]
fn one_line_is_the_first_row_of_the_area() {
    let line = Line::from(vec![
        Span::styled("GPU ", Style::new().fg(Color::Cyan)),
        Span::raw("80°C"),
    ]);
    let area = Rect::new(2, 1, 10, 3);
    let mut expected = canvas();
    Paragraph::new(line.clone()).render(area, &mut expected);
    let mut painted = canvas();
    paint::line(area, &mut painted, &line);
    assert_eq!(painted, expected);
    assert_eq!(painted[(2, 1)].symbol(), "G");
    assert_eq!(painted[(2, 2)].symbol(), "x");
}
