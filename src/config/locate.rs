//! Turning byte offsets in a TOML file into what a person can act on: 1-based line and
//! column, and the dotted key the offset belongs to.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

/// The 1-based line and column (in characters) of byte `offset` in `src`. An offset past the
/// end, or inside a character, points at the nearest position before it.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(src.len());
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let before = &src[..end];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The dotted key (`deadline.release_in`) whose key or value covers byte `offset`, the
/// deepest one when tables nest. `None` when the text does not parse or nothing covers it.
pub fn key_at(src: &str, offset: usize) -> Option<String> {
    let doc = DeTable::parse(src).ok()?;
    let path = find_offset(doc.get_ref(), offset)?;
    Some(path.join("."))
}

/// Where the key at dotted `path` is written, if it is.
pub fn key_span(src: &str, path: &[&str]) -> Option<Range<usize>> {
    let doc = DeTable::parse(src).ok()?;
    let mut table = doc.get_ref();
    let (last, parents) = path.split_last()?;
    for name in parents {
        let (_, value) = table.iter().find(|(k, _)| k.get_ref() == name)?;
        table = value.get_ref().as_table()?;
    }
    let (key, _) = table.iter().find(|(k, _)| k.get_ref() == last)?;
    Some(key.span())
}

fn covers(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

// Parent spans are not trusted to contain their children (a `[section]` header's span need
// not cover the keys below it), so every table is searched.
fn find_offset(table: &DeTable<'_>, offset: usize) -> Option<Vec<String>> {
    for (key, value) in table {
        if let DeValue::Table(inner) = value.get_ref()
            && let Some(mut path) = find_offset(inner, offset)
        {
            path.insert(0, key.get_ref().to_string());
            return Some(path);
        }
        if covers(&key.span(), offset) || covers(&value.span(), offset) {
            return Some(vec![key.get_ref().to_string()]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let src = "a = 1\nbé = \"x\"\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        let quote = src.find('"').unwrap();
        assert_eq!(line_col(src, quote), (2, 6));
        assert_eq!(line_col(src, 10_000), (3, 1));
        // Inside the two-byte é: clamps back to its start.
        assert_eq!(line_col(src, 8), (2, 2));
    }

    #[test]
    fn finds_the_key_under_an_offset_in_a_section() {
        let src = "top = 1\n[deadline]\nrelease_in = \"8x\"\n";
        let offset = src.find("8x").unwrap();
        assert_eq!(key_at(src, offset).as_deref(), Some("deadline.release_in"));
        assert_eq!(key_at(src, 0).as_deref(), Some("top"));
        let span = key_span(src, &["deadline", "release_in"]).unwrap();
        assert_eq!(&src[span], "release_in");
        assert_eq!(key_span(src, &["deadline", "nope"]), None);
    }
}
