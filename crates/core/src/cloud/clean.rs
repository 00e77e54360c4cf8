//! What a provider said, made safe to print: every id, name, state and summary one line with no
//! [unsafe](crate::text::is_unsafe) character, so a Name tag cannot move the cursor, set the
//! clipboard, reverse what follows it or forge a line of its own in a confirmation, `checklist`
//! or `--dry-run`. The edge applies it to every answer
//! before anything reads it (`provider::OneLine`).

use super::{ActionReport, InstanceInfo, Inventory, LinkedResource};
use crate::text::{is_unsafe, one_line};

/// The most characters kept of an id, a name or a state.
pub(super) const FIELD_CHARS: usize = 200;
/// The most characters kept of an action's summary or of one call it made.
const SUMMARY_CHARS: usize = 500;

fn dirty(text: &str, max: usize) -> bool {
    text.contains(is_unsafe) || text.chars().count() > max || text.trim() != text
}

fn clean(text: &mut String, max: usize) {
    if dirty(text, max) {
        *text = one_line(text, max);
    }
}

impl InstanceInfo {
    #[must_use]
    pub fn one_lined(mut self) -> InstanceInfo {
        for field in [
            &mut self.id,
            &mut self.name,
            &mut self.provider,
            &mut self.sku,
        ] {
            clean(field, FIELD_CHARS);
        }
        if let Some(region) = self.region.as_mut() {
            clean(region, FIELD_CHARS);
        }
        self
    }
}

impl LinkedResource {
    #[must_use]
    pub fn one_lined(mut self) -> LinkedResource {
        for field in [&mut self.id, &mut self.name, &mut self.state] {
            clean(field, FIELD_CHARS);
        }
        for field in [
            self.class.as_mut(),
            self.backs_image.as_mut(),
            self.attached_to.as_mut(),
            self.origin.as_mut(),
        ]
        .into_iter()
        .flatten()
        {
            clean(field, FIELD_CHARS);
        }
        if self
            .tags
            .iter()
            .any(|(k, v)| dirty(k, FIELD_CHARS) || dirty(v, FIELD_CHARS))
        {
            self.tags = std::mem::take(&mut self.tags)
                .into_iter()
                .map(|(mut k, mut v)| {
                    clean(&mut k, FIELD_CHARS);
                    clean(&mut v, FIELD_CHARS);
                    (k, v)
                })
                .collect();
        }
        self
    }
}

impl Inventory {
    #[must_use]
    pub fn one_lined(self) -> Inventory {
        Inventory {
            instance: self.instance.map(InstanceInfo::one_lined),
            resources: self
                .resources
                .into_iter()
                .map(LinkedResource::one_lined)
                .collect(),
            deadline: self.deadline,
        }
    }
}

impl ActionReport {
    #[must_use]
    pub fn one_lined(mut self) -> ActionReport {
        clean(&mut self.summary, SUMMARY_CHARS);
        for call in &mut self.calls {
            clean(call, SUMMARY_CHARS);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use jiff::Timestamp;
    use rust_decimal::Decimal;

    use super::*;
    use crate::meter::{BillingMode, InstanceState, ResourceKind};

    fn resource(id: &str, name: &str) -> LinkedResource {
        LinkedResource {
            id: id.into(),
            name: name.into(),
            kind: ResourceKind::DataDisk,
            class: Some("gp3".into()),
            size_gib: Decimal::from(2000),
            state: "in-use".into(),
            created: Timestamp::UNIX_EPOCH,
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: crate::cloud::Exposure::default(),
            origin: None,
            tags: BTreeMap::new(),
        }
    }

    #[test]
    fn a_forged_line_in_a_name_tag_stays_on_its_line() {
        let forged = "data\n  Total that keeps billing: 0.00 USD/month\x1b]52;c;cHduZWQ=\x07";
        let instance = InstanceInfo {
            id: "i-0demo4a100f00d".into(),
            name: "llm\r\x1b[2Kfinetune".into(),
            provider: "demo".into(),
            region: None,
            sku: "p4de.24xlarge".into(),
            mode: BillingMode::OnDemand,
            state: InstanceState::Running,
            created: Timestamp::UNIX_EPOCH,
            live_price_per_hour: None,
            history: Vec::new(),
        };
        let inventory = Inventory {
            instance: Some(instance),
            resources: vec![resource("vol-0root", "root"), resource("vol-0data", forged)],
            deadline: None,
        }
        .one_lined();
        let name = &inventory.resources[1].name;
        assert!(!name.contains(['\n', '\x1b', '\x07']), "{name:?}");
        assert!(
            name.starts_with("data Total that keeps billing"),
            "{name:?}"
        );
        assert_eq!(inventory.resources[0].name, "root");
        let instance = inventory.instance.expect("the instance");
        assert_eq!(instance.name, "llm [2Kfinetune");
        assert_eq!(
            instance.id, "i-0demo4a100f00d",
            "clean ids are left as they are"
        );
    }

    #[test]
    fn a_right_to_left_override_in_a_name_is_neutralised() {
        // Shown by a terminal that honours it, this reads "data-exe.pdf".
        let spoofed = "data-\u{202E}fdp.exe\u{2066}";
        let inventory = Inventory {
            instance: None,
            resources: vec![resource("vol-0data\u{200F}", spoofed)],
            deadline: None,
        }
        .one_lined();
        let r = &inventory.resources[0];
        assert_eq!(r.name, "data- fdp.exe");
        assert_eq!(r.id, "vol-0data");
    }

    #[test]
    fn a_tag_and_an_origin_are_one_line_each() {
        let mut r = resource("snap-0", "snap");
        r.kind = ResourceKind::Snapshot;
        r.origin = Some("i-0gone\n\x1b[2J".into());
        r.tags = BTreeMap::from([
            ("project".to_string(), "llm".to_string()),
            (
                "owner\x1b]52;c;cHduZWQ=\x07".to_string(),
                "me\nTotal: 0.00".to_string(),
            ),
        ]);
        let r = r.one_lined();
        assert_eq!(r.origin.as_deref(), Some("i-0gone [2J"));
        assert_eq!(r.tags.get("project").map(String::as_str), Some("llm"));
        assert_eq!(r.tags.len(), 2);
        for (k, v) in &r.tags {
            assert!(!k.contains(char::is_control), "{k:?}");
            assert!(!v.contains(char::is_control), "{v:?}");
        }
        let (key, value) = r.tags.iter().find(|(k, _)| k.starts_with("owner")).unwrap();
        assert!(key.starts_with("owner ]52"), "{key:?}");
        assert_eq!(value, "me Total: 0.00");
    }
}
