//! The static floor: a bare hyper server that answers every request with one fixed page, the
//! least any server can do with the same bytes. It runs as a process of its own (this bench
//! again, with [`FLAG`]) on two tokio workers, as `gpumeter serve` does, so that its CPU is
//! measured apart from the scrapers'.

use std::convert::Infallible;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};

use gpumeter::serve::CONTENT_TYPE;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{CONTENT_TYPE as CONTENT_TYPE_HEADER, HeaderValue};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

/// Runs this bench as the floor, serving the page in the file that follows.
pub const FLAG: &str = "--static-floor";

/// Starts the floor serving `page`; the process and the port it answers on.
pub fn start(page: &Path) -> (Child, u16) {
    let mut child = Command::new(std::env::current_exe().expect("the bench's own path"))
        .arg(FLAG)
        .arg(page)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the static floor");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its stdout"))
        .read_line(&mut line)
        .expect("its port");
    let port = line.trim().parse().expect("a port number");
    (child, port)
}

/// Serves `page` on a free loopback port, printed first, until killed.
pub fn serve(page: &Path) -> ExitCode {
    let page = Bytes::from(std::fs::read(page).expect("the page"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let port = listener.local_addr().expect("its address").port();
        let mut out = std::io::stdout();
        writeln!(out, "{port}")
            .and_then(|()| out.flush())
            .expect("say the port");
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let page = page.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |_: Request<Incoming>| {
                    let mut response = Response::new(Full::new(page.clone()));
                    response
                        .headers_mut()
                        .insert(CONTENT_TYPE_HEADER, HeaderValue::from_static(CONTENT_TYPE));
                    std::future::ready(Ok::<_, Infallible>(response))
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}
