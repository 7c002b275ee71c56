//! A static file server for the tests: a real HTTP server (axum on 127.0.0.1) that serves the
//! files it is given by path (a Maven repository, a DTD) and records every request it receives,
//! so a test can check what was asked for, or that nothing was. With [`FileServer::require`] it is
//! a private repository: a request without that `Authorization` header gets 401.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

#[derive(Default)]
struct Data {
    files: HashMap<String, Vec<u8>>,
    requests: Vec<String>,
    /// Each request's `Authorization` header, if it had one: what credentials this host was sent.
    sent: Vec<(String, Option<String>)>,
    /// The `Authorization` header every request needs; None: none.
    authorization: Option<String>,
}

type Shared = Arc<Mutex<Data>>;

pub struct FileServer {
    /// `http://127.0.0.1:PORT/`, with the trailing slash.
    pub url: String,
    data: Shared,
}

impl FileServer {
    pub fn start() -> FileServer {
        let data: Shared = Arc::default();
        let app = axum::Router::new().fallback(handle).with_state(data.clone());
        let addr = crate::common::serve(app);
        FileServer { url: format!("http://{addr}/"), data }
    }

    pub fn serve(&self, path: &str, body: impl Into<Vec<u8>>) -> &Self {
        self.data.lock().unwrap().files.insert(path.to_string(), body.into());
        self
    }

    /// From now on every request needs this `Authorization` header (e.g. `Basic <base64>`).
    pub fn require(&self, authorization: &str) -> &Self {
        self.data.lock().unwrap().authorization = Some(authorization.to_string());
        self
    }

    /// Every request so far, as `METHOD /path?query`, followed by ` (authorized)` or ` (refused)`
    /// once credentials are required.
    pub fn requests(&self) -> Vec<String> {
        self.data.lock().unwrap().requests.clone()
    }

    /// Every request so far as `METHOD /path`, with the `Authorization` header it carried.
    pub fn authorizations(&self) -> Vec<(String, Option<String>)> {
        self.data.lock().unwrap().sent.clone()
    }
}

async fn handle(State(data): State<Shared>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let mut data = data.lock().unwrap();
    let allowed = data
        .authorization
        .as_ref()
        .map(|required| headers.get(header::AUTHORIZATION).is_some_and(|h| h == required.as_str()));
    let outcome = match allowed {
        None => "",
        Some(true) => " (authorized)",
        Some(false) => " (refused)",
    };
    data.requests.push(format!("{method} {uri}{outcome}"));
    let sent = headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok()).map(str::to_string);
    data.sent.push((format!("{method} {uri}"), sent));
    if allowed == Some(false) {
        return (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Basic realm=\"private\"")])
            .into_response();
    }
    match data.files.get(uri.path()) {
        Some(body) if method == Method::GET => (StatusCode::OK, body.clone()).into_response(),
        _ if uri.path() == "/" => StatusCode::OK.into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
