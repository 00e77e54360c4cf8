//! The HTTP side: `GET /metrics` renders the newest snapshot; nothing here waits on a sampler
//! or the provider, and no client holds a connection longer than [`Limits`] allow.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::exposition::{CONTENT_TYPE, render};
use super::snapshot::Snapshot;

/// How long a connection may take, so that clients that send half a request, or nothing, or
/// never read the answer cannot pile up open connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From when the server starts waiting for a request (a new connection, or a kept-alive one
    /// after its last answer) until the request line and headers are in: a half-sent request
    /// and an idle connection are both closed after this.
    pub header_read: Duration,
    /// The whole life of a connection, however busy: after it, the request in progress is
    /// answered and the connection closed.
    pub connection: Duration,
    /// How long that last answer may take before the connection is dropped regardless.
    pub closing: Duration,
}

impl Default for Limits {
    /// A scrape sends one small request and reads a few kilobytes: seconds are plenty.
    fn default() -> Self {
        Limits {
            header_read: Duration::from_secs(10),
            connection: Duration::from_secs(120),
            closing: Duration::from_secs(10),
        }
    }
}

/// Serves `/metrics` on `listener` with the default [`Limits`] until the task is dropped.
pub async fn serve_http(listener: TcpListener, snapshots: watch::Receiver<Arc<Snapshot>>) {
    serve_http_with(listener, snapshots, Limits::default()).await;
}

/// Serves `/metrics` on `listener` until the task is dropped.
pub async fn serve_http_with(
    listener: TcpListener,
    snapshots: watch::Receiver<Arc<Snapshot>>,
    limits: Limits,
) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: try again shortly rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        let snapshots = snapshots.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                let snapshot = Arc::clone(&snapshots.borrow());
                async move { Ok::<_, Infallible>(respond(&request, &snapshot)) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            // A client that goes away mid-request is its own problem.
            tokio::select! {
                _ = connection.as_mut() => return,
                () = tokio::time::sleep(limits.connection) => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(limits.closing, connection).await;
        });
    }
}

fn respond(request: &Request<Incoming>, snapshot: &Snapshot) -> Response<Full<Bytes>> {
    let reply = |status: StatusCode, content_type: &str, body: String| {
        let mut response = Response::new(Full::new(Bytes::from(body)));
        *response.status_mut() = status;
        if let Ok(value) = content_type.parse() {
            response
                .headers_mut()
                .insert(hyper::header::CONTENT_TYPE, value);
        }
        response
    };
    let text = "text/plain; charset=utf-8";
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return reply(
            StatusCode::METHOD_NOT_ALLOWED,
            text,
            "only GET\n".to_string(),
        );
    }
    match request.uri().path() {
        "/metrics" => reply(StatusCode::OK, CONTENT_TYPE, render(snapshot)),
        "/" => reply(
            StatusCode::OK,
            text,
            "gpumeter: metrics are at /metrics\n".to_string(),
        ),
        _ => reply(StatusCode::NOT_FOUND, text, "not found\n".to_string()),
    }
}
