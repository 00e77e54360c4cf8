//! What the screen tests share: the cockpit drawn into a ratatui frame, a terminal emulator
//! that reads a backend's bytes back, and the real cockpit loop on a test terminal.

pub mod demo_loop;
pub mod emulator;
pub mod ui_frame;
