//! The HTTP side: `GET /metrics` answers with the newest [`Page`], rendered when its snapshot
//! was published; nothing here renders, waits on a sampler or the provider, and no client holds
//! a connection longer than [`Limits`] allow.

use std::convert::Infallible;
use std::time::Duration;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::HeaderValue;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::exposition::CONTENT_TYPE;
use super::page::Page;

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
pub async fn serve_http(listener: TcpListener, pages: watch::Receiver<Page>) {
    serve_http_with(listener, pages, Limits::default()).await;
}

/// Serves `/metrics` on `listener` until the task is dropped.
pub async fn serve_http_with(listener: TcpListener, pages: watch::Receiver<Page>, limits: Limits) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: try again shortly rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            continue;
        };
        let pages = pages.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: Request<Incoming>| {
                std::future::ready(Ok::<_, Infallible>(answer(&request, &pages)))
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

/// The answer to `request` from the newest page; the page is let go before anything is built,
/// so a publish never waits on a scrape.
fn answer<B>(request: &Request<B>, pages: &watch::Receiver<Page>) -> Response<Full<Bytes>> {
    let page = pages.borrow().clone();
    respond(request, &page)
}

fn respond<B>(request: &Request<B>, page: &Page) -> Response<Full<Bytes>> {
    let reply = |status: StatusCode, content_type: &'static str, body: Bytes| {
        let mut response = Response::new(Full::new(body));
        *response.status_mut() = status;
        response.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            HeaderValue::from_static(content_type),
        );
        response
    };
    let text = "text/plain; charset=utf-8";
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return reply(
            StatusCode::METHOD_NOT_ALLOWED,
            text,
            Bytes::from_static(b"only GET\n"),
        );
    }
    match request.uri().path() {
        "/metrics" => reply(StatusCode::OK, CONTENT_TYPE, page.text().clone()),
        "/" => reply(
            StatusCode::OK,
            text,
            Bytes::from_static(b"gpumeter: metrics are at /metrics\n"),
        ),
        _ => reply(
            StatusCode::NOT_FOUND,
            text,
            Bytes::from_static(b"not found\n"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt as _;

    use super::*;
    use crate::serve::exposition::render;
    use crate::serve::snapshot::{Snapshot, Target};

    fn sample(instance_id: &str) -> Snapshot {
        Snapshot {
            target: Target {
                instance_id: instance_id.into(),
                provider: "test".into(),
            },
            cloud_ok: Some(true),
            ..Snapshot::default()
        }
    }

    async fn scrape(pages: &watch::Receiver<Page>) -> Bytes {
        let request = Request::get("/metrics").body(()).unwrap();
        let frame = answer(&request, pages).into_body().frame().await;
        frame.unwrap().unwrap().into_data().unwrap()
    }

    /// Rendering per scrape cost 6-8 times a static server's latency under fifty scrapers: every
    /// scrape of one sample must be the bytes rendered when it was published, not a copy.
    #[tokio::test]
    async fn scrapes_of_one_sample_share_the_bytes_rendered_when_it_was_published() {
        let first = sample("i-first");
        let (publish, pages) = watch::channel(Page::of(&first));
        let published = pages.borrow().text().as_ptr();
        let (a, b) = (scrape(&pages).await, scrape(&pages).await);
        assert_eq!(a, render(&first).as_bytes());
        assert!(!a.is_empty());
        assert_eq!((a.as_ptr(), b.as_ptr()), (published, published));

        let second = sample("i-second");
        publish.send_replace(Page::of(&second));
        let c = scrape(&pages).await;
        assert_eq!(c, render(&second).as_bytes());
        assert_eq!(c.as_ptr(), pages.borrow().text().as_ptr());
    }
}
