//! Taking the terminal for the cockpit and giving it back as it was, on every way out: a quit,
//! a panic, and the signals of [`super::signals`].

use std::io::{self, Write as _};

use super::backend::LeanBackend;
use super::screen::Screen;

/// What gives the terminal back, in the order it is sent: the attributes reset, the cursor
/// shown (the alternate screen does not keep its own visibility, so leaving it does not show
/// the cursor again), then the normal screen.
pub const GIVE_BACK: &[u8] = b"\x1b[0m\x1b[?25h\x1b[?1049l";

/// The status a panic ends the cockpit with, as Rust's own for a panic out of `main`.
pub const PANIC_STATUS: i32 = 101;

/// Takes the terminal as `ratatui::try_init` does (raw mode, the alternate screen, and a panic
/// hook that gives it back), drawn through a [`LeanBackend`] on its own handle to standard
/// output, so a frame is one write whatever `Stdout`'s line buffering would do.
///
/// A panic anywhere, on any thread, then ends the process once the terminal is back and the
/// panic reported, with the status an unwinding `main` has (101): a panic in a provider's task
/// or a sampler's thread would otherwise leave the loop drawing on a terminal no longer raw.
pub fn take_screen() -> io::Result<Screen<LeanBackend<std::fs::File>>> {
    use std::os::fd::AsFd as _;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
        std::process::exit(PANIC_STATUS);
    }));
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(io::stdout(), crossterm::terminal::EnterAlternateScreen)?;
    let out = std::fs::File::from(io::stdout().as_fd().try_clone_to_owned()?);
    Ok(Screen::new(LeanBackend::new(out)))
}

/// Gives the terminal back: the modes raw mode changed (echo, canonical input, output
/// processing, signals from keys), then [`GIVE_BACK`]. Each step is tried even when one before
/// it failed, and nothing is said of a failure: after a hangup there is no terminal to tell.
pub fn restore() {
    let _ = crossterm::terminal::disable_raw_mode();
    let mut out = io::stdout().lock();
    let _ = out.write_all(GIVE_BACK);
    let _ = out.flush();
}
