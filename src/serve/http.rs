//! The HTTP side: `GET /metrics` renders the newest snapshot; nothing here waits on a sampler
//! or the provider.

use std::convert::Infallible;
use std::sync::Arc;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::exposition::{CONTENT_TYPE, render};
use super::snapshot::Snapshot;

/// Serves `/metrics` on `listener` until the task is dropped.
pub async fn serve_http(listener: TcpListener, snapshots: watch::Receiver<Arc<Snapshot>>) {
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
            // A client that goes away mid-request is its own problem.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
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
