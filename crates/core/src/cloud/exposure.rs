//! Data left where others can read it: disks, snapshots and images stored unencrypted, and
//! snapshots or images shared with other accounts or with everyone. What the provider did not
//! say is unknown and never reported as safe. `checklist`, `sweep` and the release dialog show
//! the same findings.

use serde::{Deserialize, Serialize};

use super::LinkedResource;
use crate::meter::ResourceKind;

/// Who besides the owner may use a snapshot or an image.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "with", content = "accounts")]
pub enum Sharing {
    /// The provider was not asked, or did not say.
    #[default]
    Unknown,
    /// The owner alone.
    Private,
    /// These other accounts may copy it or launch from it.
    Accounts(Vec<String>),
    /// Anyone may: the data in it is public.
    Public,
}

/// What the provider says about a resource's data: encrypted at rest, and shared with whom.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exposure {
    /// `None` where the provider does not say (or the kind holds no data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted: Option<bool>,
    #[serde(default, skip_serializing_if = "is_unknown")]
    pub shared: Sharing,
}

fn is_unknown(sharing: &Sharing) -> bool {
    *sharing == Sharing::Unknown
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Anyone can read the data now.
    Critical,
    /// Someone else can read it, or could if the storage were taken.
    Warning,
}

/// One thing about a resource's data that a user should act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub id: String,
    pub kind: ResourceKind,
    pub severity: Severity,
    /// What is wrong, in a few words (English, as JSON carries it).
    pub what: String,
    /// What to do about it, in one line (English, as JSON carries it).
    pub fix: String,
    /// What it is, for saying it in the user's language.
    #[serde(skip)]
    pub cause: Exposed,
}

/// What a finding found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exposed {
    /// Anyone may copy it (or, for an image, launch from it).
    Public,
    /// These other accounts may.
    Shared(Vec<String>),
    /// Stored unencrypted.
    Unencrypted,
}

fn holds_data(kind: ResourceKind) -> bool {
    matches!(
        kind,
        ResourceKind::SystemDisk
            | ResourceKind::DataDisk
            | ResourceKind::Snapshot
            | ResourceKind::Image
            | ResourceKind::NetworkVolume
    )
}

/// What `r` exposes, the gravest first.
#[must_use]
pub fn findings_of(r: &LinkedResource) -> Vec<Finding> {
    if !holds_data(r.kind) {
        return Vec::new();
    }
    let finding = |severity, what: String, fix: &str, cause| Finding {
        id: r.id.clone(),
        kind: r.kind,
        severity,
        what,
        fix: fix.into(),
        cause,
    };
    let mut out = Vec::new();
    let copy = if r.kind == ResourceKind::Image {
        "launch instances from it"
    } else {
        "copy its data"
    };
    match &r.exposure.shared {
        Sharing::Public => out.push(finding(
            Severity::Critical,
            format!("public: anyone can {copy}"),
            "make it private now, or delete it",
            Exposed::Public,
        )),
        Sharing::Accounts(accounts) => out.push(finding(
            Severity::Warning,
            format!(
                "shared with {} other account(s): {}",
                accounts.len(),
                accounts.join(", ")
            ),
            "remove the accounts that should not have it",
            Exposed::Shared(accounts.clone()),
        )),
        Sharing::Private | Sharing::Unknown => {}
    }
    if r.exposure.encrypted == Some(false) {
        out.push(finding(
            Severity::Warning,
            "unencrypted".into(),
            "delete it when done, or copy it encrypted and delete this one",
            Exposed::Unencrypted,
        ));
    }
    out
}

/// Every finding in `resources`, the gravest first, then in the order given.
#[must_use]
pub fn findings(resources: &[LinkedResource]) -> Vec<Finding> {
    let mut out: Vec<Finding> = resources.iter().flat_map(findings_of).collect();
    out.sort_by_key(|f| f.severity);
    out
}

impl Finding {
    /// One line for a terminal: `CRITICAL snapshot snap-1: public: ... → make it private`.
    #[must_use]
    pub fn line(&self) -> String {
        let grade = match self.severity {
            Severity::Critical => "CRITICAL",
            Severity::Warning => "warning",
        };
        format!(
            "{grade} {} {}: {}; {}",
            self.kind.label(),
            self.id,
            self.what,
            self.fix
        )
    }

    /// [`Finding::line`] in the user's language: the same line in English.
    #[must_use]
    pub fn shown(&self) -> String {
        let (what, fix) = self.shown_parts();
        crate::t!(
            "finding-line",
            grade = self.shown_grade(),
            kind = self.kind.shown(),
            id = self.id.as_str(),
            what = what,
            fix = fix
        )
    }

    /// The finding without its resource, as the details of that resource list it: the grade,
    /// what is wrong and what to do, in the user's language.
    #[must_use]
    pub fn shown_said(&self) -> String {
        let (what, fix) = self.shown_parts();
        crate::t!(
            "finding-said",
            grade = self.shown_grade(),
            what = what,
            fix = fix
        )
    }

    fn shown_grade(&self) -> std::borrow::Cow<'static, str> {
        match self.severity {
            Severity::Critical => crate::t!("details-critical"),
            Severity::Warning => crate::t!("details-warning"),
        }
    }

    /// What is wrong and what to do, in the user's language.
    fn shown_parts(&self) -> (String, String) {
        let image = if self.kind == ResourceKind::Image {
            "yes"
        } else {
            "no"
        };
        let (what, fix) = match &self.cause {
            Exposed::Public => (
                crate::t!("finding-public", image = image),
                crate::t!("finding-public-fix").into_owned(),
            ),
            Exposed::Shared(accounts) => (
                crate::t!(
                    "finding-shared",
                    count = accounts.len(),
                    accounts = accounts.join(", ")
                ),
                crate::t!("finding-shared-fix").into_owned(),
            ),
            Exposed::Unencrypted => (
                crate::t!("finding-unencrypted").into_owned(),
                crate::t!("finding-unencrypted-fix").into_owned(),
            ),
        };
        (what, fix)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use jiff::Timestamp;
    use rust_decimal::Decimal;

    use super::*;

    fn with(kind: ResourceKind, encrypted: Option<bool>, shared: Sharing) -> LinkedResource {
        LinkedResource {
            id: format!("{}-1", kind.label().replace(' ', "-")),
            name: String::new(),
            kind,
            class: None,
            size_gib: Decimal::from(8),
            state: "available".into(),
            created: Timestamp::UNIX_EPOCH,
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: Exposure { encrypted, shared },
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    #[test]
    fn a_public_snapshot_is_critical_and_comes_first() {
        let found = findings(&[
            with(ResourceKind::DataDisk, Some(false), Sharing::Unknown),
            with(ResourceKind::Snapshot, Some(true), Sharing::Public),
            with(
                ResourceKind::Image,
                None,
                Sharing::Accounts(vec!["111122223333".into()]),
            ),
        ]);
        let grades: Vec<(Severity, &str)> =
            found.iter().map(|f| (f.severity, f.id.as_str())).collect();
        assert_eq!(
            grades,
            [
                (Severity::Critical, "snapshot-1"),
                (Severity::Warning, "data-disk-1"),
                (Severity::Warning, "image-1"),
            ]
        );
        assert!(
            found[0]
                .line()
                .starts_with("CRITICAL snapshot snapshot-1: public")
        );
        assert!(found[2].what.contains("111122223333"), "{:?}", found[2]);
    }

    #[test]
    fn a_finding_is_shown_in_the_users_language_and_as_its_line_in_english() {
        use crate::i18n::{Lang, scoped};
        let found = findings(&[
            with(ResourceKind::Image, Some(false), Sharing::Public),
            with(
                ResourceKind::Snapshot,
                Some(true),
                Sharing::Accounts(vec!["123".into(), "456".into()]),
            ),
        ]);
        assert_eq!(found.len(), 3);
        for f in &found {
            assert_eq!(scoped(Lang::En, || f.shown()), f.line());
            assert_eq!(
                scoped(Lang::En, || f.shown_said()),
                format!(
                    "{} {}; {}",
                    f.line().split(' ').next().unwrap_or(""),
                    f.what,
                    f.fix
                )
            );
            let said = scoped(Lang::ZhCn, || f.shown_said());
            assert!(said.contains('；') && !said.contains(&f.fix), "{said}");
            // The id is the provider's: only the words around it change.
            let chinese = scoped(Lang::ZhCn, || f.shown()).replace(&f.id, "");
            for word in [
                "CRITICAL",
                "warning",
                "public",
                "shared",
                "unencrypted",
                "delete",
                "image",
                "snapshot",
            ] {
                assert!(!chinese.contains(word), "{word} in {chinese}");
            }
        }
        let public = scoped(Lang::ZhCn, || found[0].shown());
        assert!(
            public.starts_with("严重 镜像 image-1：公开：任何人都可以用它启动实例"),
            "{public}"
        );
    }

    #[test]
    fn unknown_is_never_reported_and_an_ip_holds_no_data() {
        assert!(findings_of(&with(ResourceKind::Snapshot, None, Sharing::Unknown)).is_empty());
        assert!(
            findings_of(&with(ResourceKind::PublicIp, Some(false), Sharing::Public)).is_empty()
        );
        assert!(
            findings_of(&with(ResourceKind::DataDisk, Some(true), Sharing::Private)).is_empty()
        );
    }
}
