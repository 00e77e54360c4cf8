//! The exposition of one snapshot, rendered once when the snapshot is published and shared by
//! every scrape until the next: a scrape clones a reference to the bytes, never renders or
//! copies them, so fifty scrapers cost what fifty static-file reads would.

use hyper::body::Bytes;

use super::exposition::render;
use super::snapshot::Snapshot;

/// The rendered text of one snapshot, as `/metrics` answers it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    text: Bytes,
}

impl Page {
    /// Renders `snapshot`: the one place a scrape's text is built.
    pub fn of(snapshot: &Snapshot) -> Self {
        Page {
            text: Bytes::from(render(snapshot)),
        }
    }

    /// The text; cloning it shares the bytes.
    pub fn text(&self) -> &Bytes {
        &self.text
    }
}
