//! AutoDL behind the fault proxy: release (its power-off first) and stop of a running instance,
//! and start of a shut-down one, through every case of the matrix.

use async_trait::async_trait;
use gpumeter::provider::{Action, Provider, Seen};

use super::{Cloud, Target, Truth, run};
use crate::autodl_peer::{self, INSTANCE, Peer};

struct Autodl {
    /// The instance's status in a fresh world.
    from: &'static str,
}

#[async_trait]
impl Cloud for Autodl {
    type World = Peer;

    fn name(&self) -> &'static str {
        "autodl"
    }

    fn targets(&self) -> Vec<Target> {
        let target = |action, change| Target { action, change };
        if self.from == "running" {
            vec![
                // A release of a running instance powers it off first: that is its first change.
                target(Action::Release, "POST /api/v1/dev/instance/pro/power_off"),
                target(Action::Stop, "POST /api/v1/dev/instance/pro/power_off"),
            ]
        } else {
            vec![
                target(Action::Start, "POST /api/v1/dev/instance/pro/power_on"),
                target(Action::Release, "POST /api/v1/dev/instance/pro/release"),
            ]
        }
    }

    async fn fresh(&self) -> Self::World {
        let peer = Peer::start();
        peer.cloud(|c| c.set_status(INSTANCE, self.from));
        peer
    }

    fn upstream(&self, world: &Self::World) -> String {
        world.url()
    }

    fn adapter(&self, _world: &Self::World, endpoint: &str) -> Box<dyn Provider> {
        let adapter = autodl_peer::adapter_at(endpoint, INSTANCE);
        let seen: Seen = [("autodl", None, INSTANCE)].into_iter().collect();
        adapter.add_seen(&seen);
        Box::new(adapter)
    }

    async fn truth(&self, world: &Self::World, action: &Action) -> Truth {
        let status = world.cloud(|c| c.status(INSTANCE).map(str::to_string));
        let done = match action {
            Action::Release => status.is_none(),
            Action::Stop => status.as_deref() == Some("shutdown"),
            Action::Start => status.as_deref() == Some("running"),
            _ => false,
        };
        Truth {
            done,
            backup_lost: false,
        }
    }

    fn secret(&self) -> &'static str {
        autodl_peer::TOKEN
    }
}

#[tokio::test]
async fn autodl_behind_the_fault_proxy_is_never_falsely_done() {
    run(&Autodl { from: "running" }).await.check("autodl");
    run(&Autodl { from: "shutdown" })
        .await
        .check("autodl from shutdown");
}
