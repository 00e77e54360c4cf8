//! The cockpit drawn into a ratatui `Frame`, as the cockpit's own screen draws it: the whole
//! frame into the buffer, and the cursor where the ui puts one.

use gpumeter::app::App;
use gpumeter::ui::theme::Theme;
use ratatui::Frame;

pub fn render(frame: &mut Frame, app: &App, theme: &Theme) {
    let area = frame.area();
    if let Some(cursor) = gpumeter::ui::render(area, frame.buffer_mut(), app, theme) {
        frame.set_cursor_position(cursor);
    }
}

/// The cockpit drawn at `(w, h)` in the dark theme, as the rows of text a terminal shows.
pub fn rows(app: &App, (w, h): (u16, u16)) -> Vec<String> {
    use std::fmt::Write as _;
    let theme = Theme::builtin(gpumeter::ui::theme::Preset::Dark);
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("a test terminal");
    terminal
        .draw(|frame| render(frame, app, &theme))
        .expect("drawing never fails on a test backend");
    let buf = terminal.backend().buffer().clone();
    (0..h)
        .map(|y| {
            let mut row = String::new();
            for x in 0..w {
                let _ = write!(row, "{}", buf[(x, y)].symbol());
            }
            row
        })
        .collect()
}
