use std::collections::VecDeque;
use std::time::Duration;

use super::*;

/// A provider answering from a script: each read takes the next answer (the last one repeats),
/// and every call sent is remembered.
struct Scripted {
    reads: VecDeque<Found>,
    instance: Option<&'static str>,
    answer: fn(Step) -> Sent<String>,
    sent: Vec<Step>,
    read_count: usize,
}

#[async_trait]
impl Deleting for Scripted {
    type Failed = String;
    type Unread = String;
    // The trait's own error type in this test double: the text is all a test reads.
    async fn read(&mut self) -> Result<Found, String> {
        self.read_count += 1;
        if self.reads.len() > 1 {
            Ok(self.reads.pop_front().unwrap())
        } else {
            Ok(self.reads.front().cloned().unwrap())
        }
    }
    fn stops(&self, _: &String) -> bool {
        false
    }
    async fn instance_state(&mut self, _: &str) -> Result<Option<String>, String> {
        Ok(self.instance.map(str::to_string))
    }
    async fn send(&mut self, step: Step, _: Option<&Now>) -> Result<Sent<String>, ProviderError> {
        self.sent.push(step);
        Ok((self.answer)(step))
    }
}

fn listed(state: &str, on: Option<&str>) -> Found {
    Found::Listed(Now {
        state: state.into(),
        on: on.map(str::to_string),
        link: None,
    })
}

fn accepted(_: Step) -> Sent<String> {
    Sent::Accepted
}

const DISK: Plan<'static> = Plan {
    what: "disk d-1",
    shown_on: None,
    free: Some("DetachDisk"),
    freed: "Available",
    delete: "DeleteDisk",
    gone_state: None,
};

fn scripted(reads: Vec<Found>, instance: Option<&'static str>) -> Scripted {
    Scripted {
        reads: reads.into(),
        instance,
        answer: accepted,
        sent: Vec::new(),
        read_count: 0,
    }
}

/// Deletes the disk shown on the stopped instance `i-1`, listed there first and then as `after`.
fn shown_on_stopped(after: impl IntoIterator<Item = Found>) -> (Scripted, (bool, String)) {
    let shown = Plan {
        shown_on: Some("i-1"),
        ..DISK
    };
    let mut reads = vec![listed("In_use", Some("i-1"))];
    reads.extend(after);
    let mut d = scripted(reads, Some("Stopped"));
    let out = run_it(&mut d, &shown);
    (d, out)
}

fn run_it(d: &mut Scripted, plan: &Plan<'_>) -> (bool, String) {
    let readback = Readback {
        attempts: 6,
        interval: Duration::ZERO,
    };
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(run(d, plan, &readback))
        .unwrap()
}

#[test]
fn only_a_stopped_instance_the_plan_showed_or_a_terminated_one_gives_up_a_disk() {
    let shown = Plan {
        shown_on: Some("i-1"),
        ..DISK
    };
    assert_eq!(may_free(&shown, "i-1", Some("Stopped")), Ok(()));
    assert_eq!(may_free(&DISK, "i-9", Some("terminated")), Ok(()));
    let running = may_free(&shown, "i-1", Some("running")).unwrap_err();
    assert!(
        running.contains("instance i-1, which is running"),
        "{running}"
    );
    let elsewhere = may_free(&shown, "i-2", Some("stopped")).unwrap_err();
    assert!(
        elsewhere.contains("instance i-2") && elsewhere.contains("showed it on i-1"),
        "{elsewhere}"
    );
    let was_free = may_free(&DISK, "i-2", Some("STOPPED")).unwrap_err();
    assert!(was_free.contains("showed it free"), "{was_free}");
    let unlisted = may_free(&shown, "i-1", None).unwrap_err();
    assert!(unlisted.contains("does not list"), "{unlisted}");
    for state in ["stopping", "pending", "Starting"] {
        assert!(may_free(&shown, "i-1", Some(state)).is_err(), "{state}");
    }
}

#[test]
fn a_disk_attached_since_the_plan_to_a_running_instance_is_refused_with_nothing_sent() {
    let mut d = scripted(vec![listed("In_use", Some("i-run"))], Some("Running"));
    let (done, summary) = run_it(&mut d, &DISK);
    assert!(!done);
    assert!(
        summary.contains("instance i-run, which is Running"),
        "{summary}"
    );
    assert!(d.sent.is_empty(), "{:?}", d.sent);
}

#[test]
fn a_disk_of_the_stopped_instance_shown_is_freed_then_deleted_on_proof() {
    let (d, (done, summary)) = shown_on_stopped([listed("Available", None), Found::NotFound]);
    assert!(done, "{summary}");
    assert_eq!(d.sent, [Step::Free, Step::Delete]);
}

#[test]
fn one_empty_read_before_the_delete_proves_nothing_and_the_delete_is_still_sent() {
    // One lie, then the disk again, free: deleted as usual and proved gone.
    let mut d = scripted(
        vec![Found::Absent, listed("Available", None), Found::NotFound],
        None,
    );
    let (done, summary) = run_it(&mut d, &DISK);
    assert!(done, "{summary}");
    assert_eq!(d.sent, [Step::Delete]);
    // Never listed: the delete is sent anyway, and its not-found answer is the proof.
    let mut d = scripted(vec![Found::Absent], None);
    d.answer = |_| Sent::NotFound("InvalidDiskId.NotFound".into());
    let (done, summary) = run_it(&mut d, &DISK);
    assert!(done && summary.contains("not found"), "{summary}");
    assert_eq!(d.sent, [Step::Delete]);
    assert_eq!(d.read_count, EMPTY_READS as usize);
}

#[test]
fn an_accepted_delete_with_one_empty_read_back_is_not_done() {
    let mut d = scripted(
        vec![
            listed("Available", None),
            Found::Absent,
            listed("Available", None),
        ],
        None,
    );
    let (done, summary) = run_it(&mut d, &DISK);
    assert!(!done, "{summary}");
    assert!(summary.contains("still lists it (Available)"), "{summary}");
    // A resource that reappears after two empty reads is not gone either.
    let mut d = scripted(
        vec![
            listed("Available", None),
            Found::Absent,
            Found::Absent,
            listed("Available", None),
        ],
        None,
    );
    assert!(!run_it(&mut d, &DISK).0);
    // Empty on enough reads in a row is proof.
    let mut d = scripted(vec![listed("Available", None), Found::Absent], None);
    let (done, summary) = run_it(&mut d, &DISK);
    assert!(done && summary.contains("3 reads in a row"), "{summary}");
}

#[test]
fn a_disk_not_freed_is_not_deleted() {
    let (d, (done, summary)) = shown_on_stopped([listed("Detaching", Some("i-1"))]);
    assert!(
        !done && summary.ends_with("disk d-1 not deleted"),
        "{summary}"
    );
    assert_eq!(
        d.sent,
        [Step::Free],
        "nothing is deleted while still attached"
    );
}
