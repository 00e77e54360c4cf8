//! The official SDK models of the Alibaba Cloud and Tencent Cloud actions the adapters call,
//! written by `extract.py` from the installed SDK packages (scripts/test installs them into
//! `.venv`), and the walk that checks a JSON value against one. The extractor runs once per test
//! binary, so the models are always those of the packages installed, never a stale copy.
//! Without the packages the Alibaba and Tencent peers refuse to start, so their tests skip,
//! saying so, except under CI, where they fail.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

/// A field's shape in the official model.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Node {
    /// `string`, `integer`, `boolean`, `number` or `any`.
    Scalar {
        #[serde(rename = "type")]
        kind: String,
    },
    Object {
        fields: BTreeMap<String, Node>,
    },
    List {
        item: Box<Node>,
    },
}

/// A request parameter: its shape, and what the model says of it.
#[derive(Debug, Deserialize)]
pub struct Param {
    #[serde(flatten)]
    pub node: Node,
    #[serde(default)]
    pub required: bool,
    /// Alibaba: a string holding a JSON array (`DiskIds=["d-1"]`).
    #[serde(default)]
    pub json_list: bool,
    /// Alibaba: the query names the SDK flattens it to, indexes as `N` (`Tag.N.Key`), and the
    /// type of each.
    #[serde(default)]
    pub flat: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
pub struct Action {
    pub request: BTreeMap<String, Param>,
    pub response: Node,
}

#[derive(Debug, Deserialize)]
pub struct Models {
    pub alibaba: BTreeMap<String, Action>,
    pub tencent: BTreeMap<String, Action>,
}

/// The models, or `None` when the SDK packages are not installed.
pub fn models() -> Option<&'static Models> {
    loaded().as_ref().ok()
}

/// The models for a peer to check against, or `None` after saying that the running test skips
/// for want of them (failing it under CI): a peer without them answers nonsense.
pub fn required() -> Option<&'static Models> {
    match loaded() {
        Ok(models) => Some(models),
        Err(why) => {
            crate::peer::missing(&format!("the official SDK models in .venv ({why})"));
            None
        }
    }
}

fn loaded() -> &'static Result<Models, String> {
    static MODELS: OnceLock<Result<Models, String>> = OnceLock::new();
    MODELS.get_or_init(load)
}

fn load() -> Result<Models, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    if !python.exists() {
        return Err("there is no .venv/bin/python".to_string());
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("sdk-models-{}.json", std::process::id()));
    let run = Command::new(&python)
        .arg(root.join("tests/clouds/models/extract.py"))
        .arg(&out)
        .output()
        .expect("the extractor runs");
    if run.status.code() == Some(3) {
        return Err(String::from_utf8_lossy(&run.stderr).trim().to_string());
    }
    assert!(
        run.status.success(),
        "the model extractor failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("the extractor wrote its file");
    let _ = std::fs::remove_file(&out);
    Ok(serde_json::from_str(&text).expect("the extractor's JSON reads"))
}

/// What is wrong with a value against the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A field the model does not have.
    Unknown,
    /// A field whose nesting or scalar type is not the model's.
    WrongType,
}

#[derive(Debug, Clone)]
pub struct Violation {
    pub fault: Fault,
    /// Where, as `DescribeDisks.Disks.Disk[0].Size`.
    pub path: String,
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.detail)
    }
}

/// Whether a JSON scalar is of the model's scalar type (`null` is: the APIs send it for unset).
pub fn scalar_fits(kind: &str, value: &Value) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        _ => true,
    }
}

fn shape(node: &Node) -> String {
    match node {
        Node::Scalar { kind } => kind.clone(),
        Node::Object { .. } => "an object".into(),
        Node::List { .. } => "a list".into(),
    }
}

/// Every place `value` has a field, a nesting or a scalar type that `node` does not.
pub fn walk(node: &Node, value: &Value, path: &str, out: &mut Vec<Violation>) {
    let mut push = |fault, detail: String| {
        out.push(Violation {
            fault,
            path: path.to_string(),
            detail,
        });
    };
    match (node, value) {
        (_, Value::Null) => {}
        (Node::Object { fields }, Value::Object(map)) => {
            for (name, v) in map {
                let at = format!("{path}.{name}");
                match fields.get(name) {
                    Some(n) => walk(n, v, &at, out),
                    None => out.push(Violation {
                        fault: Fault::Unknown,
                        path: at,
                        detail: "not in the official model".into(),
                    }),
                }
            }
        }
        (Node::List { item }, Value::Array(items)) => {
            for (i, v) in items.iter().enumerate() {
                walk(item, v, &format!("{path}[{i}]"), out);
            }
        }
        (Node::Scalar { kind }, v) if !v.is_object() && !v.is_array() => {
            if !scalar_fits(kind, v) {
                push(Fault::WrongType, format!("{v} where the model has {kind}"));
            }
        }
        (n, v) => push(
            Fault::WrongType,
            format!("{} where the model has {}", kind_of(v), shape(n)),
        ),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "an object",
        Value::Array(_) => "a list",
        _ => "a scalar",
    }
}

/// Pages served per list action, and listings read to their end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pages {
    pub served: usize,
    pub ends: usize,
}

/// The page size the peers answer with: a third of the list (at least one), whatever was asked
/// for, so that a list of three or more items takes three or more pages; `cap` overrides it.
pub fn page_size(asked: usize, total: usize, cap: Option<usize>) -> usize {
    let cap = cap.unwrap_or((total / 3).max(1));
    asked.clamp(1, cap.max(1))
}
