//! The terminal the cockpit draws on: [`Screen`], the one buffer a frame is drawn into, and
//! [`LeanBackend`], which sends the terminal only the cells it does not already show, with
//! the cheapest cursor moves and attribute changes (about 4× fewer bytes a second than
//! ratatui's crossterm backend, which matters over a slow or metered ssh link). [`restore`]
//! gives the terminal back on every way out, [`signals`] included.

pub mod backend;
mod codes;
pub mod restore;
pub mod screen;
pub mod signals;

pub use backend::LeanBackend;
pub use restore::{restore, take_screen};
pub use screen::Screen;
