//! The shared HTTP layer against a loopback server that answers what each test scripts.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gpumeter::provider::http::{Http, HttpError, HttpPolicy, Repeat, by_status};

/// Serves `script` in order (status, delay before answering), then 200s; counts requests.
fn serve(script: Vec<(u16, Duration)>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let (status, delay) = script.get(n).copied().unwrap_or((200, Duration::ZERO));
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
                line.clear();
            }
            std::thread::sleep(delay);
            let body = format!("answer {n}");
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, count)
}

fn http() -> Http {
    Http::new(HttpPolicy {
        timeout: Duration::from_millis(300),
        connect_timeout: Duration::from_millis(300),
        retries: 3,
        throttled_retries: 3,
        backoff_base: Duration::from_millis(5),
        backoff_max: Duration::from_millis(20),
    })
    .unwrap()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn safe_calls_retry_throttling_and_server_errors() {
    let (url, count) = serve(vec![(429, Duration::ZERO), (503, Duration::ZERO)]);
    let r = rt()
        .block_on(http().call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.body, "answer 2");
    assert_eq!(count.load(Ordering::SeqCst), 3);
}

#[test]
fn writes_without_a_token_are_sent_once() {
    let (url, count) = serve(vec![(500, Duration::ZERO)]);
    let r = rt()
        .block_on(http().call(Repeat::Once, |c| c.post(&url), by_status))
        .unwrap();
    assert_eq!(r.status, 500, "the answer is reported, not retried");
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

#[test]
fn a_client_error_is_an_answer_not_a_retry() {
    let (url, count) = serve(vec![(403, Duration::ZERO)]);
    let r = rt()
        .block_on(http().call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

#[test]
fn retries_give_up_with_the_last_answer() {
    let (url, count) = serve(vec![(500, Duration::ZERO); 10]);
    let r = rt()
        .block_on(http().call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!(r.status, 500);
    assert_eq!(count.load(Ordering::SeqCst), 4);
}

#[test]
fn a_hanging_server_times_out() {
    let (url, count) = serve(vec![(200, Duration::from_secs(2)); 10]);
    let err = rt()
        .block_on(http().call(Repeat::Once, |c| c.get(&url), by_status))
        .unwrap_err();
    assert!(matches!(err, HttpError::Timeout(_)), "{err:?}");
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

#[test]
fn a_closed_port_is_a_connect_error_without_the_url() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/?Signature=secret-looking");
    let err = rt()
        .block_on(http().call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap_err();
    assert!(matches!(err, HttpError::Connect(_)), "{err:?}");
    assert!(!err.to_string().contains("secret-looking"), "{err}");
}

/// Being throttled is counted apart from failing: a listing policy outwaits more 429s than
/// it would retry server errors, and server errors still stop at their own bound.
#[test]
fn throttled_answers_have_a_budget_of_their_own() {
    let patient = |retries, throttled_retries| {
        Http::new(HttpPolicy {
            retries,
            throttled_retries,
            backoff_base: Duration::from_millis(2),
            backoff_max: Duration::from_millis(5),
            ..HttpPolicy::default()
        })
        .unwrap()
    };
    let six_429s = vec![(429, Duration::ZERO); 6];
    let (url, count) = serve(six_429s.clone());
    let r = rt()
        .block_on(patient(1, 6).call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!((r.status, count.load(Ordering::SeqCst)), (200, 7));

    let (url, count) = serve(six_429s);
    let r = rt()
        .block_on(patient(6, 2).call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!(
        r.status, 429,
        "the throttled answer once its budget is spent"
    );
    assert_eq!(count.load(Ordering::SeqCst), 3);

    let (url, count) = serve(vec![(503, Duration::ZERO); 6]);
    let r = rt()
        .block_on(patient(1, 6).call(Repeat::Safe, |c| c.get(&url), by_status))
        .unwrap();
    assert_eq!((r.status, count.load(Ordering::SeqCst)), (503, 2));
    assert_eq!(HttpPolicy::listing().retries, HttpPolicy::default().retries);
    assert!(HttpPolicy::listing().throttled_retries > HttpPolicy::default().throttled_retries);
}
