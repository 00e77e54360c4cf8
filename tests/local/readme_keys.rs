//! The README's key table is the key map: every binding is documented, with its description.

use gpumeter::app::BINDINGS;

#[test]
fn every_binding_is_in_the_readme_key_table() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for binding in BINDINGS {
        let keys: Vec<String> = binding
            .keys
            .iter()
            .map(|k| format!("`{}`", k.label()))
            .collect();
        let row = format!("| {} | {} |", keys.join(", "), binding.description);
        assert!(readme.contains(&row), "README lacks the row: {row}");
    }
    let rows = readme
        .lines()
        .filter(|l| l.starts_with("| `") && l.ends_with(" |"))
        .count();
    assert!(rows >= BINDINGS.len());
}
