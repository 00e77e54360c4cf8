//! A provider's published API description, cut down to what gpumeter calls (a fixture beside
//! this file), and the check of each reply the peer sends and each body the adapter sends
//! against it: the OpenAPI 3.1 schema keywords those fixtures use (`$ref`, `type`, `properties`,
//! `required`, `additionalProperties`, `allOf`, `anyOf`, `items`, `enum`, `minimum`, `maximum`,
//! `maxItems`, `minLength`, `format: date-time`). An object takes no member its schema does not
//! name, unless `additionalProperties` allows it: a peer's reply with a field the reference
//! lacks is a mistake in the peer, and an adapter reading it would read nothing from the cloud.

use serde_json::{Map, Value};

pub struct Spec {
    doc: Value,
}

type Checked = Result<(), String>;

impl Spec {
    pub fn parse(text: &str) -> Spec {
        let doc: Value = serde_json::from_str(text).expect("the API fixture is JSON");
        assert!(
            doc["source"].is_string(),
            "the API fixture cites its source"
        );
        Spec { doc }
    }

    /// The operation `method path` (`GET /v2/pods/p1`), matched against the path templates.
    fn operation(&self, method: &str, path: &str) -> Result<&Value, String> {
        let paths = self.doc["paths"].as_object().map(Map::iter).into_iter();
        let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        paths
            .flatten()
            .find(|(template, _)| {
                let want: Vec<&str> = template.trim_end_matches('/').split('/').collect();
                want.len() == segments.len()
                    && want
                        .iter()
                        .zip(&segments)
                        .all(|(w, s)| w == s || (w.starts_with('{') && !s.is_empty()))
            })
            .and_then(|(_, ops)| ops.get(method.to_ascii_lowercase()))
            .ok_or_else(|| format!("{method} {path}: not in the reference"))
    }

    /// A reply the peer sends: a success in the operation's schema for that status, an error in
    /// the reference's error schema.
    pub fn reply(&self, method: &str, path: &str, status: u16, body: &str) -> Checked {
        let what = format!("{method} {path} -> {status}");
        let op = self.operation(method, path)?;
        let schema = if status >= 400 {
            &self.doc["error"]
        } else {
            op["responses"]
                .get(status.to_string())
                .ok_or_else(|| format!("{what}: the reference has no such status"))?
        };
        if schema.is_null() {
            return if body.trim().is_empty() {
                Ok(())
            } else {
                Err(format!("{what}: the reference has no body here"))
            };
        }
        let value: Value =
            serde_json::from_str(body).map_err(|e| format!("{what}: not JSON: {e}"))?;
        self.check(&value, schema, "$")
            .map_err(|e| format!("{what}: {e}"))
    }

    /// A request the adapter sends: its query parameters and body as the operation declares.
    pub fn request(&self, method: &str, path: &str, query: &str, body: &str) -> Checked {
        let what = format!("{method} {path}");
        let op = self.operation(method, path)?;
        let params = op["parameters"].as_array().cloned().unwrap_or_default();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(param) = params
                .iter()
                .find(|p| p["name"] == name && p["in"] == "query")
            else {
                return Err(format!(
                    "{what}: query parameter `{name}` not in the reference"
                ));
            };
            let value = serde_json::from_str(value).unwrap_or(Value::String(value.into()));
            self.check(&value, &param["schema"], name)
                .map_err(|e| format!("{what}: {e}"))?;
        }
        match (op.get("requestBody"), body.trim().is_empty()) {
            (None, true) => Ok(()),
            (None, false) => Err(format!("{what}: the reference takes no body")),
            (Some(_), true) => Err(format!("{what}: the reference wants a body")),
            (Some(schema), false) => {
                let value: Value =
                    serde_json::from_str(body).map_err(|e| format!("{what}: not JSON: {e}"))?;
                self.check(&value, schema, "$")
                    .map_err(|e| format!("{what}: {e}"))
            }
        }
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        match schema["$ref"].as_str() {
            Some(r) => {
                let name = r.rsplit('/').next().unwrap_or_default();
                self.resolve(&self.doc["components"]["schemas"][name])
            }
            None => schema,
        }
    }

    /// Whether `schema` describes an object, through `allOf` and `$ref` too.
    fn is_object(&self, schema: &Value) -> bool {
        let s = self.resolve(schema);
        s["type"] == "object"
            || s.get("properties").is_some()
            || s["allOf"]
                .as_array()
                .is_some_and(|all| all.iter().any(|b| self.is_object(b)))
    }

    fn check(&self, v: &Value, schema: &Value, at: &str) -> Checked {
        let s = self.resolve(schema);
        if s.is_null() {
            return Err(format!("{at}: the fixture lacks {schema}"));
        }
        if let Some(any) = s["anyOf"].as_array() {
            return any
                .iter()
                .find_map(|b| self.check(v, b, at).ok())
                .ok_or_else(|| format!("{at}: {v} matches none of {}", any.len()));
        }
        if self.is_object(s) {
            return self.check_object(v, s, at);
        }
        for branch in s["allOf"].as_array().into_iter().flatten() {
            self.check(v, branch, at)?;
        }
        if let Some(kind) = s.get("type") {
            let kinds: Vec<&str> = match kind {
                Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                other => other.as_str().into_iter().collect(),
            };
            if !kinds.iter().any(|k| is_kind(v, k)) {
                return Err(format!("{at}: {v} is not {kinds:?}"));
            }
        }
        if v.is_null() {
            return Ok(());
        }
        if let Some(allowed) = s["enum"].as_array()
            && !allowed.contains(v)
        {
            return Err(format!("{at}: {v} is not one of {allowed:?}"));
        }
        let n = v.as_f64();
        if let (Some(n), Some(min)) = (n, s["minimum"].as_f64())
            && n < min
        {
            return Err(format!("{at}: {n} is under {min}"));
        }
        if let (Some(n), Some(max)) = (n, s["maximum"].as_f64())
            && n > max
        {
            return Err(format!("{at}: {n} is over {max}"));
        }
        if let (Some(text), Some(min)) = (v.as_str(), s["minLength"].as_u64())
            && (text.chars().count() as u64) < min
        {
            return Err(format!("{at}: shorter than {min}"));
        }
        if s["format"] == "date-time"
            && let Some(text) = v.as_str()
            && text.parse::<jiff::Timestamp>().is_err()
        {
            return Err(format!("{at}: {text} is not an RFC 3339 time"));
        }
        if let Some(items) = v.as_array() {
            if let Some(max) = s["maxItems"].as_u64()
                && items.len() as u64 > max
            {
                return Err(format!("{at}: more than {max} items"));
            }
            for (i, item) in items.iter().enumerate() {
                self.check(item, &s["items"], &format!("{at}[{i}]"))?;
            }
        }
        Ok(())
    }

    /// Gathers the members, the required ones and what else may come, across `allOf`.
    fn gather<'a>(&'a self, schema: &'a Value, rules: &mut Rules<'a>) {
        let s = self.resolve(schema);
        for branch in s["allOf"].as_array().into_iter().flatten() {
            self.gather(branch, rules);
        }
        for (name, member) in s["properties"].as_object().into_iter().flatten() {
            rules.members.push((name.as_str(), member));
        }
        for name in s["required"].as_array().into_iter().flatten() {
            rules.required.extend(name.as_str());
        }
        if let Some(more) = s.get("additionalProperties") {
            rules.more = Some(more);
        }
    }

    fn check_object(&self, v: &Value, s: &Value, at: &str) -> Checked {
        let Some(object) = v.as_object() else {
            return Err(format!("{at}: {v} is not an object"));
        };
        let mut rules = Rules::default();
        self.gather(s, &mut rules);
        if let Some(missing) = rules.required.iter().find(|r| !object.contains_key(**r)) {
            return Err(format!("{at}: `{missing}` is required"));
        }
        for (key, value) in object {
            let here = format!("{at}.{key}");
            let mut declared = rules.members.iter().filter(|(n, _)| n == key).peekable();
            if declared.peek().is_none() {
                match rules.more {
                    Some(more) if more.is_object() => self.check(value, more, &here)?,
                    Some(Value::Bool(true)) => {}
                    _ => return Err(format!("{here}: not in the reference")),
                }
            }
            for (_, member) in declared {
                self.check(value, member, &here)?;
            }
        }
        Ok(())
    }
}

#[derive(Default)]
struct Rules<'a> {
    members: Vec<(&'a str, &'a Value)>,
    required: Vec<&'a str>,
    more: Option<&'a Value>,
}

fn is_kind(v: &Value, kind: &str) -> bool {
    match kind {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}
