//! The account's instance list, as the official `vastai` package's `show_instances` pages it:
//! `GET /api/v1/instances/` with `select_filters`, `order_by` and `limit`, then `after_token`
//! set to each answer's `next_token` until an answer has none. Rows are under `instances`.

use serde_json::Value;

use crate::provider::bearer::{Api, ApiError, no_list};
use crate::provider::http::Repeat;

pub const INSTANCES: &str = "/api/v1/instances/";
/// `show_instances`' page size.
const LIMIT: &str = "25";
/// At most this many pages; an account with more instances is not one renter's.
const MAX_PAGES: usize = 40;

/// The query for the page after `token` (the first page without one).
fn query(token: Option<&str>) -> String {
    let mut url = reqwest::Url::parse("http://list.invalid/").expect("a fixed URL parses");
    {
        let mut pairs = url.query_pairs_mut();
        pairs.append_pair("select_filters", "{}");
        pairs.append_pair("order_by", r#"[{"col": "id", "dir": "asc"}]"#);
        pairs.append_pair("limit", LIMIT);
        if let Some(token) = token {
            pairs.append_pair("after_token", token);
        }
    }
    url.query().unwrap_or_default().to_string()
}

fn is(row: &Value, id: &str) -> bool {
    match row.get("id") {
        Some(Value::String(s)) => s == id,
        Some(Value::Number(n)) => n.to_string() == id,
        _ => false,
    }
}

/// Whether instance `id` is on any page of the account's list.
pub async fn listed(api: &Api, id: &str) -> Result<bool, ApiError> {
    Ok(rows(api).await?.iter().any(|row| is(row, id)))
}

/// Every row of the account's instance list, page by page.
pub async fn rows(api: &Api) -> Result<Vec<Value>, ApiError> {
    let mut token: Option<String> = None;
    let mut all = Vec::new();
    for _ in 0..MAX_PAGES {
        let path = format!("{INSTANCES}?{}", query(token.as_deref()));
        let call = Api::describe("GET", INSTANCES);
        let page = api.json("GET", &path, None, Repeat::Safe).await?;
        let rows = page
            .get("instances")
            .and_then(Value::as_array)
            .ok_or_else(|| ApiError::malformed(&call, no_list("instances")))?;
        all.extend(rows.iter().cloned());
        match page.get("next_token") {
            Some(Value::String(t)) if !t.is_empty() => token = Some(t.clone()),
            Some(Value::Number(n)) => token = Some(n.to_string()),
            _ => return Ok(all),
        }
    }
    Err(ApiError::malformed(
        &Api::describe("GET", INSTANCES),
        crate::t!("vast-answer-too-many-pages", pages = MAX_PAGES.to_string()),
    ))
}
