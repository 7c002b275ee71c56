//! A static file server for the tests: a real HTTP server (axum on 127.0.0.1) that serves the
//! files it is given by path (a Maven repository, a DTD) and records every request it receives,
//! so a test can check what was asked for, or that nothing was.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

#[derive(Default)]
struct Data {
    files: HashMap<String, Vec<u8>>,
    requests: Vec<String>,
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

    /// Every request so far, as `METHOD /path?query`.
    pub fn requests(&self) -> Vec<String> {
        self.data.lock().unwrap().requests.clone()
    }
}

async fn handle(State(data): State<Shared>, method: Method, uri: Uri) -> Response {
    let mut data = data.lock().unwrap();
    data.requests.push(format!("{method} {uri}"));
    match data.files.get(uri.path()) {
        Some(body) if method == Method::GET => (StatusCode::OK, body.clone()).into_response(),
        _ if uri.path() == "/" => StatusCode::OK.into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
