//! The key table in docs/cockpit.md is the key map: every binding is documented, with its
//! description.

use gpumeter::app::BINDINGS;

#[test]
fn every_binding_is_in_the_cockpit_key_table() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cockpit.md"))
        .expect("docs/cockpit.md");
    for binding in BINDINGS {
        let keys: Vec<String> = binding
            .keys
            .iter()
            .map(|k| format!("`{}`", k.label()))
            .collect();
        let row = format!("| {} | {} |", keys.join(", "), binding.description);
        assert!(page.contains(&row), "docs/cockpit.md lacks the row: {row}");
    }
    let rows = page
        .lines()
        .filter(|l| l.starts_with("| `") && l.ends_with(" |"))
        .count();
    assert!(rows >= BINDINGS.len());
}
