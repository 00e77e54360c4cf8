//! The account side of the `command` provider: `list_account` prints what bills in the account
//! with no running instance using it (`sweep` lists it), and `delete` deletes one resource,
//! with `{id}` and `{kind}` filled in. A delete is confirmed only when the list, run again,
//! no longer holds the id: `list_account`, else `inventory` (which proves something only for an
//! id it listed before the delete). Without either it is done by exit status, never confirmed.

use super::run::{self, Values, display, fill};
use super::{CommandProvider, ID, cannot_run, run_error, schema, unfilled};
use crate::provider::{Action, ActionReport, LinkedResource, ProviderError};
use crate::t;

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
            ProviderError::unsupported(ID, t!("cmdp-no-delete", kind = r.kind.shown()))
        })?;
        let values = Values {
            resource: Some((r.id.clone(), kind_name(r))),
            ..self.values()
        };
        fill(argv, &values).map_err(|why| unfilled(&why.0))
    }

    /// Runs `list_account` and reads what it prints.
    pub(super) async fn list_account(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let argv = set(self.config.list_account.as_ref())
            .ok_or_else(|| ProviderError::unsupported(ID, t!("cmdp-no-list-account")))?;
        let argv = fill(argv, &self.values()).map_err(|why| unfilled(&why.0))?;
        let out = run::run(&argv, self.config.timeout)
            .await
            .map_err(|e| run_error(&e).with_call(&t!("cmdp-call-list-account")))?;
        schema::parse_account(&out.stdout).map_err(|e| {
            ProviderError::state(
                ID,
                t!("cmdp-bad-json", key = "list_account", error = e.to_string()),
            )
            .with_fix(&t!("cmdp-bad-json-fix", key = "list_account"))
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
        let mut calls = vec![
            self.delete_argv(r)
                .map_or_else(|e| cannot_run(e.message()), |a| display(&a)),
        ];
        if let Some((_, argv)) = self.lister() {
            let line =
                fill(argv, &self.values()).map_or_else(|e| cannot_run(&e.0), |a| display(&a));
            calls.push(t!(
                "cmdp-call-read-back-until",
                call = line,
                id = r.id.as_str()
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
                t!("cmdp-delete-unverified").into_owned(),
                calls,
            ));
        };
        let key = lister.key();
        calls.push(t!("cmdp-call-read-back", key = key));
        if listed_before == Some(false) {
            return Ok(report(
                false,
                t!("cmdp-delete-never-listed", id = r.id.as_str()),
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
            Ok(now) if !now.iter().any(|x| x.id == r.id) => {
                report(true, t!("cmdp-delete-confirmed", key = key), calls)
            }
            Ok(_) => report(false, t!("cmdp-delete-still-listed", key = key), calls),
            Err(e) => report(
                false,
                t!("cmdp-delete-read-back-failed", error = e.shown()),
                calls,
            ),
        })
    }
}
