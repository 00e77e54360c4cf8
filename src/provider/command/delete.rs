//! The account side of the `command` provider: `list_account` prints what bills in the account
//! with no running instance using it (`sweep` lists it), and `delete` deletes one resource,
//! with `{id}` and `{kind}` filled in. A delete is confirmed only when the list, run again,
//! no longer holds the id: `list_account`, else `inventory` (which proves something only for an
//! id it listed before the delete). Without either it is done by exit status, never confirmed.

use super::run::{self, Values, display, fill};
use super::{CommandProvider, ID, run_error, schema, unfilled};
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};

/// Which command reads the delete back.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lister {
    Account,
    Inventory,
}

impl Lister {
    fn key(self) -> &'static str {
        match self {
            Lister::Account => "list_account",
            Lister::Inventory => "inventory",
        }
    }
}

fn set(argv: Option<&Vec<String>>) -> Option<&[String]> {
    argv.map(Vec::as_slice).filter(|a| !a.is_empty())
}

/// The kind as the inventory JSON names it (`network_volume`).
fn kind_name(r: &LinkedResource) -> String {
    serde_json::to_value(r.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl CommandProvider {
    fn values(&self) -> Values {
        Values {
            instance: self.instance.clone(),
            ..Values::default()
        }
    }

    fn lister(&self) -> Option<(Lister, &[String])> {
        set(self.config.list_account.as_ref())
            .map(|a| (Lister::Account, a))
            .or_else(|| set(self.config.inventory.as_ref()).map(|a| (Lister::Inventory, a)))
    }

    /// The delete command for `r`, filled in.
    fn delete_argv(&self, r: &LinkedResource) -> Result<Vec<String>, ProviderError> {
        let argv = set(self.config.delete.as_ref()).ok_or_else(|| {
            ProviderError::unsupported(
                ID,
                format!(
                    "delete a {} (set [command] delete in the config)",
                    r.kind.label()
                ),
            )
        })?;
        let values = Values {
            resource: Some((r.id.clone(), kind_name(r))),
            ..self.values()
        };
        fill(argv, &values).map_err(|why| unfilled(why.0))
    }

    /// Runs `list_account` and reads what it prints.
    pub(super) async fn list_account(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let argv = set(self.config.list_account.as_ref()).ok_or_else(|| {
            ProviderError::unsupported(
                ID,
                "sweep the account (set [command] list_account in the config)",
            )
        })?;
        let argv = fill(argv, &self.values()).map_err(|why| unfilled(why.0))?;
        let out = run::run(&argv, self.config.timeout)
            .await
            .map_err(|e| run_error(&e).with_call("list_account command"))?;
        schema::parse_account(&out.stdout).map_err(|e| {
            ProviderError::state(
                ID,
                format!(
                    "the list_account command printed JSON that does not follow the schema: {e}"
                ),
            )
            .with_fix("make [command] list_account print the documented JSON (see docs/providers/command.md)")
        })
    }

    /// The resources `lister` shows now.
    async fn listed(&self, lister: Lister) -> Result<Vec<LinkedResource>, ProviderError> {
        match lister {
            Lister::Account => self.list_account().await,
            Lister::Inventory => Ok(self.read().await?.resources),
        }
    }

    /// The calls [`CommandProvider::delete_resource`] makes.
    pub(super) fn delete_calls(&self, r: &LinkedResource) -> Vec<String> {
        if set(self.config.delete.as_ref()).is_none() {
            return Vec::new();
        }
        let mut calls = vec![self.delete_argv(r).map_or_else(
            |e| format!("(cannot run: {})", e.message()),
            |a| display(&a),
        )];
        if let Some((_, argv)) = self.lister() {
            let line = fill(argv, &self.values())
                .map_or_else(|e| format!("(cannot run: {e})"), |a| display(&a));
            calls.push(format!(
                "{line} (read back until {} is no longer listed)",
                r.id
            ));
        }
        calls
    }

    /// Runs the delete command for `r`, then the list until it no longer holds `r`.
    pub(super) async fn delete_resource(
        &self,
        r: &LinkedResource,
    ) -> Result<ActionReport, ProviderError> {
        let argv = self.delete_argv(r)?;
        let lister = self.lister();
        // The inventory lists what is linked to the instance: its silence about an id it never
        // listed proves nothing.
        let listed_before = match lister {
            Some((Lister::Inventory, _)) => Some(
                self.listed(Lister::Inventory)
                    .await?
                    .iter()
                    .any(|x| x.id == r.id),
            ),
            _ => None,
        };
        let mut calls = vec![display(&argv)];
        run::run(&argv, self.config.timeout)
            .await
            .map_err(|e| run_error(&e))?;
        let report = |confirmed: bool, summary: String, calls: Vec<String>| ActionReport {
            action: Action::Cleanup {
                delete: vec![r.clone()],
            },
            confirmed,
            summary: format!("{}: {summary}", r.id),
            calls,
        };
        let Some((lister, _)) = lister else {
            return Ok(report(
                false,
                "the delete command exited 0: done by exit status; could not verify \
                 (no [command] list_account or inventory to read back)"
                    .into(),
                calls,
            ));
        };
        let key = lister.key();
        calls.push(format!("{key} command (read back)"));
        if listed_before == Some(false) {
            return Ok(report(
                false,
                format!(
                    "the delete command exited 0; could not verify: the inventory command did \
                     not list {} before the delete (set [command] list_account)",
                    r.id
                ),
                calls,
            ));
        }
        let mut last = self.listed(lister).await;
        for _ in 1..self.readback.attempts.max(1) {
            if matches!(&last, Ok(now) if !now.iter().any(|x| x.id == r.id)) {
                break;
            }
            tokio::time::sleep(self.readback.interval).await;
            last = self.listed(lister).await;
        }
        Ok(match last {
            Ok(now) if !now.iter().any(|x| x.id == r.id) => report(
                true,
                format!("delete confirmed: the {key} command no longer lists it"),
                calls,
            ),
            Ok(_) => report(
                false,
                format!("the delete command exited 0, but the {key} command still lists it"),
                calls,
            ),
            Err(e) => report(
                false,
                format!("the delete command exited 0, but reading back failed ({e})"),
                calls,
            ),
        })
    }
}
