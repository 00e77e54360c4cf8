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
