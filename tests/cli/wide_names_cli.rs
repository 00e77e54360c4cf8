//! Names that are not one column a character (Chinese, an emoji, a combining accent) keep the
//! command line's tables in line: the column after them starts at the same terminal column in
//! every row, measured in display columns as a terminal draws them.

use serde_json::Value;
use unicode_width::UnicodeWidthStr as _;

use super::actions_cli::{Cloud, stdout};

/// Resource ids and names as a user might give them; and two rows left as they were.
const WIDE: [(&str, &str, &str); 3] = [
    ("vol-0data", "训练数据-0data", "训练数据盘"),
    ("snap-0a", "snap-🚀0a", "nightly-🚀"),
    ("snap-0b", "snap-e\u{301}b", "cafe\u{301}-snap"),
];
const PLAIN: [&str; 2] = ["snap-0c", "ami-0train"];

fn widen(cloud: &Cloud) {
    let mut state = cloud.state();
    for r in state["resources"].as_array_mut().unwrap() {
        if let Some((_, id, name)) = WIDE.iter().find(|(old, ..)| r["id"] == *old) {
            r["id"] = Value::from(*id);
            r["name"] = Value::from(*name);
        }
    }
    let text = serde_json::to_string(&state).unwrap();
    std::fs::write(cloud.path().join("demo-cloud.json"), text).unwrap();
}

/// The display column where each row's `GiB` ends and where the next column starts.
fn columns_after_size(text: &str) -> Vec<(usize, usize)> {
    // sweep leaves out the data disk, which is in use.
    let ids = WIDE.iter().map(|(_, id, _)| *id).chain(PLAIN);
    let rows: Vec<&str> = ids
        .filter(|id| text.contains(id))
        .map(|id| {
            let found: Vec<&str> = text
                .lines()
                .filter(|l| l.contains(id) && l.contains(" GiB"))
                .collect();
            assert_eq!(found.len(), 1, "{id} in one row:\n{text}");
            found[0]
        })
        .collect();
    rows.iter()
        .map(|row| {
            let end = row.find(" GiB").unwrap() + " GiB".len();
            let rest = &row[end..];
            let next = end + rest.len() - rest.trim_start().len();
            (row[..end].width(), row[..next].width())
        })
        .collect()
}

#[test]
fn wide_names_keep_the_columns_after_them_in_line() {
    let cloud = Cloud::new("wide-names");
    let first = cloud.run(&["checklist", "--json"], &[]);
    assert_eq!(first.status.code(), Some(3), "{first:?}");
    widen(&cloud);
    for args in [&["checklist"][..], &["status"], &["sweep"]] {
        let text = stdout(&cloud.run(args, &[]));
        let columns = columns_after_size(&text);
        assert!(columns.len() >= 4, "{args:?}: {columns:?}\n{text}");
        assert!(
            columns.iter().all(|c| *c == columns[0]),
            "{args:?}: GiB ends and the next column starts at {columns:?}\n{text}"
        );
    }
}
