//! EC2's XML answers, read with roxmltree into plain structs. Elements are matched by local
//! name, so the namespace (which moto and EC2 spell slightly differently) does not matter.
//! Lists are `<xxxSet><item>…</item></xxxSet>`.

use std::collections::BTreeMap;

use roxmltree::{Document, Node};

/// A malformed answer: what could not be read, never the body itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

pub fn parse(body: &str) -> Result<Document<'_>, Malformed> {
    Document::parse(body)
        .map_err(|e| Malformed(crate::t!("aws-xml-not-xml", error = e.to_string())))
}

/// `body` parsed, if its root element is `<{action}Response>` as EC2's answers are.
pub fn parse_answer<'i>(body: &'i str, action: &str) -> Result<Document<'i>, Malformed> {
    let doc = parse(body)?;
    let root = doc.root_element().tag_name().name();
    if root.strip_suffix("Response") == Some(action) {
        Ok(doc)
    } else {
        Err(Malformed(crate::t!(
            "aws-xml-wrong-root",
            action = action,
            root = root
        )))
    }
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

/// The text of the child element `name`, trimmed; `None` when absent or empty.
pub fn text<'a>(node: Node<'a, '_>, name: &str) -> Option<&'a str> {
    child(node, name)
        .and_then(|c| c.text())
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

fn owned(node: Node<'_, '_>, name: &str) -> Option<String> {
    text(node, name).map(str::to_string)
}

/// The `<item>` elements of the list `set` under `node`.
pub fn items<'a, 'i>(node: Node<'a, 'i>, set: &str) -> impl Iterator<Item = Node<'a, 'i>> {
    child(node, set)
        .into_iter()
        .flat_map(|s| s.children())
        .filter(|c| c.is_element() && c.tag_name().name() == "item")
}

/// `Code` and `Message` of the first `<Error>` anywhere in an error answer.
pub fn error(body: &str) -> Option<(String, String)> {
    let doc = Document::parse(body).ok()?;
    let err = doc
        .descendants()
        .find(|n| n.is_element() && n.tag_name().name() == "Error")?;
    Some((
        owned(err, "Code")?,
        owned(err, "Message").unwrap_or_default(),
    ))
}

/// The answer's `nextToken`, when there is another page.
pub fn next_token(doc: &Document<'_>) -> Option<String> {
    owned(doc.root_element(), "nextToken")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub id: String,
    pub instance_type: String,
    pub state: String,
    pub launch_time: Option<String>,
    /// `spot` or `scheduled`; absent for on-demand.
    pub lifecycle: Option<String>,
    pub root_device: Option<String>,
    pub name: Option<String>,
    pub availability_zone: Option<String>,
    /// Device name, volume id, delete on termination.
    pub block_devices: Vec<(String, String, bool)>,
    /// The `tagSet`, key to value.
    pub tags: BTreeMap<String, String>,
}

fn tag(node: Node<'_, '_>, key: &str) -> Option<String> {
    items(node, "tagSet")
        .find(|t| text(*t, "key") == Some(key))
        .and_then(|t| owned(t, "value"))
}

/// Every tag of `tagSet` under `node`, key to value (a tag with no value maps to "").
fn tags(node: Node<'_, '_>) -> BTreeMap<String, String> {
    items(node, "tagSet")
        .filter_map(|t| {
            let key = child(t, "key")?.text()?.to_string();
            let value = child(t, "value").and_then(|v| v.text()).unwrap_or_default();
            Some((key, value.to_string()))
        })
        .collect()
}

fn flag(node: Node<'_, '_>, name: &str) -> bool {
    text(node, name).is_some_and(|t| t.eq_ignore_ascii_case("true"))
}

/// A boolean the answer states (`true` / `false`); `None` when it is absent or unreadable, which
/// is never taken for either.
fn said(node: Node<'_, '_>, name: &str) -> Option<bool> {
    match text(node, name)?.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// An image is encrypted when each of its EBS block devices says so; one that says `false` makes
/// it unencrypted, one that says nothing leaves it unknown.
fn all_encrypted(image: Node<'_, '_>) -> Option<bool> {
    let mut out = None;
    for ebs in items(image, "blockDeviceMapping").filter_map(|b| child(b, "ebs")) {
        match said(ebs, "encrypted") {
            Some(false) => return Some(false),
            Some(true) if out != Some(false) => out = Some(true),
            _ => return None,
        }
    }
    out
}

pub fn instances(doc: &Document<'_>) -> Vec<Instance> {
    items(doc.root_element(), "reservationSet")
        .flat_map(|r| items(r, "instancesSet"))
        .filter_map(|i| {
            Some(Instance {
                id: owned(i, "instanceId")?,
                instance_type: owned(i, "instanceType").unwrap_or_default(),
                state: child(i, "instanceState")
                    .and_then(|s| owned(s, "name"))
                    .unwrap_or_default(),
                launch_time: owned(i, "launchTime"),
                lifecycle: owned(i, "instanceLifecycle"),
                root_device: owned(i, "rootDeviceName"),
                name: tag(i, "Name"),
                availability_zone: child(i, "placement").and_then(|p| owned(p, "availabilityZone")),
                block_devices: items(i, "blockDeviceMapping")
                    .filter_map(|b| {
                        let ebs = child(b, "ebs")?;
                        Some((
                            owned(b, "deviceName").unwrap_or_default(),
                            owned(ebs, "volumeId")?,
                            flag(ebs, "deleteOnTermination"),
                        ))
                    })
                    .collect(),
                tags: tags(i),
            })
        })
        .collect()
}

/// A volume for tests: `gp3`, attached (to `attached`, as `/dev/sdf`) or not, untagged.
#[cfg(test)]
pub fn test_volume(id: &str, size_gib: u64, status: &str, attached: Option<&str>) -> Volume {
    Volume {
        id: id.into(),
        size_gib,
        volume_type: Some("gp3".into()),
        status: status.into(),
        create_time: None,
        name: None,
        attachments: attached
            .map(|i| vec![(i.to_string(), "/dev/sdf".to_string(), false)])
            .unwrap_or_default(),
        encrypted: None,
        tags: BTreeMap::new(),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volume {
    pub id: String,
    pub size_gib: u64,
    pub volume_type: Option<String>,
    pub status: String,
    pub create_time: Option<String>,
    pub name: Option<String>,
    /// Instance id, device, delete on termination.
    pub attachments: Vec<(String, String, bool)>,
    /// `encrypted`, where the answer says.
    pub encrypted: Option<bool>,
    /// The `tagSet`, key to value.
    pub tags: BTreeMap<String, String>,
}

pub fn volumes(doc: &Document<'_>) -> Vec<Volume> {
    items(doc.root_element(), "volumeSet")
        .filter_map(|v| {
            Some(Volume {
                id: owned(v, "volumeId")?,
                size_gib: text(v, "size").and_then(|s| s.parse().ok()).unwrap_or(0),
                volume_type: owned(v, "volumeType"),
                status: owned(v, "status").unwrap_or_default(),
                create_time: owned(v, "createTime"),
                name: tag(v, "Name"),
                attachments: items(v, "attachmentSet")
                    .filter_map(|a| {
                        Some((
                            owned(a, "instanceId")?,
                            owned(a, "device").unwrap_or_default(),
                            flag(a, "deleteOnTermination"),
                        ))
                    })
                    .collect(),
                encrypted: said(v, "encrypted"),
                tags: tags(v),
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub id: String,
    pub volume_id: Option<String>,
    pub status: String,
    pub start_time: Option<String>,
    pub size_gib: u64,
    pub description: Option<String>,
    /// `encrypted`, where the answer says.
    pub encrypted: Option<bool>,
    /// The `tagSet`, key to value.
    pub tags: BTreeMap<String, String>,
}

pub fn snapshots(doc: &Document<'_>) -> Vec<Snapshot> {
    items(doc.root_element(), "snapshotSet")
        .filter_map(|s| {
            Some(Snapshot {
                id: owned(s, "snapshotId")?,
                volume_id: owned(s, "volumeId"),
                status: owned(s, "status").unwrap_or_default(),
                start_time: owned(s, "startTime"),
                size_gib: text(s, "volumeSize")
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(0),
                description: owned(s, "description").or_else(|| tag(s, "Name")),
                encrypted: said(s, "encrypted"),
                tags: tags(s),
            })
        })
        .collect()
}

/// `snapshotId` of a CreateSnapshot answer.
pub fn created_snapshot(doc: &Document<'_>) -> Option<String> {
    owned(doc.root_element(), "snapshotId")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub id: String,
    pub name: Option<String>,
    pub state: String,
    pub creation_date: Option<String>,
    /// The instance CreateImage made it from.
    pub source_instance: Option<String>,
    /// Snapshot id and size of each EBS block device.
    pub snapshots: Vec<(Option<String>, u64)>,
    pub description: Option<String>,
    /// `isPublic`, where the answer says.
    pub public: Option<bool>,
    /// Whether every EBS block device is encrypted: `Some(false)` if any says it is not,
    /// `None` if one does not say (or there is none).
    pub encrypted: Option<bool>,
    /// The `tagSet`, key to value.
    pub tags: BTreeMap<String, String>,
}

pub fn images(doc: &Document<'_>) -> Vec<Image> {
    items(doc.root_element(), "imagesSet")
        .filter_map(|i| {
            Some(Image {
                id: owned(i, "imageId")?,
                name: owned(i, "name"),
                state: owned(i, "imageState").unwrap_or_default(),
                creation_date: owned(i, "creationDate"),
                source_instance: owned(i, "sourceInstanceId"),
                description: owned(i, "description"),
                public: said(i, "isPublic"),
                encrypted: all_encrypted(i),
                tags: tags(i),
                snapshots: items(i, "blockDeviceMapping")
                    .filter_map(|b| child(b, "ebs"))
                    .map(|e| {
                        (
                            owned(e, "snapshotId"),
                            text(e, "volumeSize")
                                .and_then(|t| t.parse().ok())
                                .unwrap_or(0),
                        )
                    })
                    .collect(),
            })
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub public_ip: String,
    pub allocation_id: Option<String>,
    pub instance_id: Option<String>,
    pub association_id: Option<String>,
    pub network_interface_id: Option<String>,
    /// The `tagSet`, key to value.
    pub tags: BTreeMap<String, String>,
}

pub fn addresses(doc: &Document<'_>) -> Vec<Address> {
    items(doc.root_element(), "addressesSet")
        .filter_map(|a| {
            Some(Address {
                public_ip: owned(a, "publicIp")?,
                allocation_id: owned(a, "allocationId"),
                instance_id: owned(a, "instanceId"),
                association_id: owned(a, "associationId"),
                network_interface_id: owned(a, "networkInterfaceId"),
                tags: tags(a),
            })
        })
        .collect()
}

/// Who besides the owner may use a snapshot or an image, from a DescribeSnapshotAttribute
/// (`createVolumePermission`) or DescribeImageAttribute (`launchPermission`) answer: the group
/// names and the user ids of the list's items. The answer must name `id` under `id_tag`
/// (`snapshotId`, `imageId`), or it says nothing about it (`None`); a list it leaves out is
/// empty, as EC2 leaves out empty lists.
pub fn permissions(
    doc: &Document<'_>,
    (id_tag, id): (&str, &str),
    attribute: &str,
) -> Option<(Vec<String>, Vec<String>)> {
    let root = doc.root_element();
    if text(root, id_tag) != Some(id) {
        return None;
    }
    let mut groups = Vec::new();
    let mut users = Vec::new();
    for item in items(root, attribute) {
        groups.extend(owned(item, "group"));
        users.extend(owned(item, "userId"));
    }
    Some((groups, users))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INSTANCES: &str = r#"<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
      <reservationSet><item><instancesSet><item>
        <instanceId>i-1</instanceId><instanceType>g5.xlarge</instanceType>
        <instanceState><code>16</code><name>running</name></instanceState>
        <launchTime>2026-01-02T03:04:05.000Z</launchTime>
        <instanceLifecycle>spot</instanceLifecycle><rootDeviceName>/dev/xvda</rootDeviceName>
        <tagSet><item><key>Name</key><value>train</value></item></tagSet>
        <blockDeviceMapping><item><deviceName>/dev/xvda</deviceName>
          <ebs><volumeId>vol-1</volumeId><deleteOnTermination>true</deleteOnTermination></ebs>
        </item></blockDeviceMapping>
      </item></instancesSet></item></reservationSet>
    </DescribeInstancesResponse>"#;

    #[test]
    fn reads_an_instance() {
        let doc = parse(INSTANCES).unwrap();
        let i = &instances(&doc)[0];
        assert_eq!(i.id, "i-1");
        assert_eq!(i.state, "running");
        assert_eq!(i.lifecycle.as_deref(), Some("spot"));
        assert_eq!(i.name.as_deref(), Some("train"));
        assert_eq!(i.tags, BTreeMap::from([("Name".into(), "train".into())]));
        assert_eq!(
            i.block_devices,
            vec![("/dev/xvda".into(), "vol-1".into(), true)]
        );
    }

    #[test]
    fn reads_the_tags_of_a_volume_a_snapshot_an_image_and_an_address() {
        let tag_set = "<tagSet><item><key>project</key><value>llm</value></item>\
                       <item><key>keep</key></item></tagSet>";
        let want = BTreeMap::from([
            ("keep".to_string(), String::new()),
            ("project".to_string(), "llm".to_string()),
        ]);
        let doc = |root: &str, set: &str, id: &str| {
            format!(
                "<{root}Response><{set}><item><{id}>x-1</{id}>{tag_set}</item>\
                     <item><{id}>x-2</{id}></item></{set}></{root}Response>"
            )
        };
        let body = doc("DescribeVolumes", "volumeSet", "volumeId");
        let v = volumes(&parse(&body).unwrap());
        assert_eq!((&v[0].tags, v[1].tags.is_empty()), (&want, true));
        let body = doc("DescribeSnapshots", "snapshotSet", "snapshotId");
        let s = snapshots(&parse(&body).unwrap());
        assert_eq!((&s[0].tags, s[1].tags.is_empty()), (&want, true));
        let body = doc("DescribeImages", "imagesSet", "imageId");
        let i = images(&parse(&body).unwrap());
        assert_eq!((&i[0].tags, i[1].tags.is_empty()), (&want, true));
        let body = doc("DescribeAddresses", "addressesSet", "publicIp");
        let a = addresses(&parse(&body).unwrap());
        assert_eq!((&a[0].tags, a[1].tags.is_empty()), (&want, true));
    }

    #[test]
    fn reads_an_error_and_rejects_garbage() {
        let body = "<Response><Errors><Error><Code>AuthFailure</Code><Message>no</Message>\
                    </Error></Errors><RequestID>r</RequestID></Response>";
        assert_eq!(error(body), Some(("AuthFailure".into(), "no".into())));
        assert!(parse("<DescribeInstancesResponse><reservationSet>").is_err());
        assert_eq!(error("not xml"), None);
    }

    #[test]
    fn encryption_and_sharing_are_read_only_where_stated() {
        let doc = parse(
            "<DescribeImagesResponse><imagesSet><item><imageId>ami-1</imageId>\
             <isPublic>true</isPublic><blockDeviceMapping>\
             <item><ebs><snapshotId>snap-1</snapshotId><encrypted>true</encrypted></ebs></item>\
             <item><ebs><snapshotId>snap-2</snapshotId><encrypted>false</encrypted></ebs></item>\
             </blockDeviceMapping></item><item><imageId>ami-2</imageId><blockDeviceMapping>\
             <item><ebs><snapshotId>snap-3</snapshotId></ebs></item></blockDeviceMapping>\
             </item></imagesSet></DescribeImagesResponse>",
        )
        .unwrap();
        let found = images(&doc);
        assert_eq!(
            (found[0].public, found[0].encrypted),
            (Some(true), Some(false))
        );
        assert_eq!((found[1].public, found[1].encrypted), (None, None));
        let doc = parse(
            "<DescribeSnapshotAttributeResponse><snapshotId>snap-1</snapshotId>\
             <createVolumePermission><item><group>all</group></item>\
             <item><userId>111122223333</userId></item></createVolumePermission>\
             </DescribeSnapshotAttributeResponse>",
        )
        .unwrap();
        let asked = |id| permissions(&doc, ("snapshotId", id), "createVolumePermission");
        assert_eq!(
            asked("snap-1"),
            Some((vec!["all".into()], vec!["111122223333".into()]))
        );
        assert_eq!(asked("snap-2"), None, "an answer about another snapshot");
        let doc = parse(
            "<DescribeImageAttributeResponse><imageId>ami-1</imageId>\
             </DescribeImageAttributeResponse>",
        )
        .unwrap();
        assert_eq!(
            permissions(&doc, ("imageId", "ami-1"), "launchPermission"),
            Some((vec![], vec![]))
        );
    }
}
