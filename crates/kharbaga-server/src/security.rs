//! What every request goes through: the Host check against DNS rebinding, the Origin check
//! against cross-site requests that change things, and the security headers of every
//! answer (a Content-Security-Policy, no sniffing, no framing, no referrer).

use crate::api::ApiError;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;

/// The page's scripts, styles and images are all the server's own files; it talks only to
/// the server; nothing may frame it.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers added to every answer.
const HEADERS: [(HeaderName, &str); 4] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
];

/// The host names a server answers to.
pub(crate) struct HostPolicy {
    /// Names allowed besides `localhost` and IP addresses, in lower case.
    names: Vec<String>,
    /// Every name is allowed (`*` among the names).
    any: bool,
}

impl HostPolicy {
    /// The policy allowing `localhost` (and its subdomains), IP addresses and `names`
    /// (compared without case; `*` allows all).
    pub(crate) fn new(names: &[String]) -> HostPolicy {
        HostPolicy {
            names: names
                .iter()
                .map(|n| n.trim().to_ascii_lowercase())
                .collect(),
            any: names.iter().any(|n| n.trim() == "*"),
        }
    }

    /// Whether a request for `host` (a Host header's value: a name or address, maybe with a
    /// port) is answered. A page of another site reached through DNS rebinding sends its own
    /// name, never an IP address, so addresses are always allowed.
    fn allows(&self, host: &str) -> bool {
        let name = host_name(host).to_ascii_lowercase();
        let name = name.strip_suffix('.').unwrap_or(&name);
        self.any
            || name == "localhost"
            || name.ends_with(".localhost")
            || name
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
                .is_ok()
            || self.names.iter().any(|n| n == name)
    }
}

/// The name or address of a Host header's value, without its port.
fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        // [v6]:port
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// Checks the request's Host and Origin, runs it, and adds the security headers.
pub(crate) async fn guard(
    State(policy): State<Arc<HostPolicy>>,
    req: Request,
    next: Next,
) -> Response {
    let mut response = match check(&policy, &req) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

fn check(policy: &HostPolicy, req: &Request) -> Result<(), ApiError> {
    let headers = req.headers();
    // A request without a Host (HTTP/1.0, or a router called directly) comes from no
    // browser, which always sends one.
    let host = match headers.get(header::HOST) {
        Some(value) => Some(
            value
                .to_str()
                .map_err(|_| ApiError::bad_request("the Host header is not text"))?,
        ),
        None => req.uri().authority().map(|a| a.as_str()),
    };
    if let Some(host) = host {
        if !policy.allows(host) {
            return Err(ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                "unknown_host",
                format!(
                    "this server does not answer to the name '{}' (a public server names \
                     its hosts with --allowed-host)",
                    host_name(host).chars().take(100).collect::<String>()
                ),
            ));
        }
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        check_origin(headers, host)?;
    }
    Ok(())
}

/// A request that may change something must not come from another site's page: when the
/// browser says where it comes from (`Origin`, `Sec-Fetch-Site`), that must be this server.
fn check_origin(headers: &HeaderMap, host: Option<&str>) -> Result<(), ApiError> {
    let cross_site = |why: String| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "cross_origin",
            format!("requests from other sites' pages are refused ({why})"),
        )
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        if site.as_bytes() == b"cross-site" {
            return Err(cross_site("Sec-Fetch-Site: cross-site".to_string()));
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let authority = origin.split_once("://").map(|(_, rest)| rest);
    match (authority, host) {
        (Some(a), Some(h)) if a.eq_ignore_ascii_case(h) => Ok(()),
        _ => Err(cross_site(format!(
            "Origin {} is not this server",
            origin.chars().take(100).collect::<String>()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let local = HostPolicy::new(&[]);
        for ok in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:1",
            "127.0.0.1",
            "127.0.0.1:8080",
            "192.168.1.20:80",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(local.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "",
        ] {
            assert!(!local.allows(bad), "{bad}");
        }
        let public = HostPolicy::new(&["Kharbaga.example".to_string()]);
        assert!(public.allows("kharbaga.example:443"));
        assert!(!public.allows("www.kharbaga.example"));
        assert!(HostPolicy::new(&["*".to_string()]).allows("anything.example"));
    }
}
