//! Just enough HTTP/1.1 for the page of `play --serve`: one request per connection (the
//! answer closes it), a head of at most [`MAX_HEAD`] bytes, a body of at most [`MAX_BODY`]
//! bytes announced by `Content-Length`; anything else is refused with a 4xx status and a
//! message, never a panic.

use std::io::{Read, Write};

/// The longest request line and headers, in bytes.
pub const MAX_HEAD: usize = 8 * 1024;
/// The longest request body, in bytes (a move is a few dozen).
pub const MAX_BODY: usize = 4 * 1024;

/// A request as the server reads it.
#[derive(Debug, PartialEq)]
pub struct Request {
    pub method: String,
    /// The target's path, without its query.
    pub path: String,
    /// The target's query, without its `?` (empty when there is none).
    pub query: String,
    /// The `Host` header, when there is one.
    pub host: Option<String>,
    pub body: Vec<u8>,
}

impl Request {
    /// The value of `name` in the query (`after=3`).
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
    }
}

/// A refused request: the status to answer and why.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// Reads one request from `stream`.
pub fn read_request(stream: &mut impl Read) -> Result<Request, Refusal> {
    let (head, mut body) = read_head(stream)?;
    let head = std::str::from_utf8(&head).map_err(|_| refuse(400, "the request is not text"))?;
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or_default();
    let parts: Vec<&str> = line.split(' ').collect();
    let [method, target, version] = parts[..] else {
        return Err(refuse(
            400,
            "the request line is not `METHOD TARGET HTTP/1.1`",
        ));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(refuse(
            400,
            format!("only HTTP/1.x is spoken, not {version:.20}"),
        ));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut host = None;
    let mut length = 0;
    for header in lines.filter(|l| !l.is_empty()) {
        let Some((name, value)) = header.split_once(':') else {
            return Err(refuse(400, "a header without a colon"));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "host" => host = Some(value.to_string()),
            "content-length" => {
                length = value
                    .parse()
                    .map_err(|_| refuse(400, "Content-Length is not a number"))?;
            }
            "transfer-encoding" => {
                return Err(refuse(
                    411,
                    "send the body with a Content-Length, not chunked",
                ))
            }
            _ => {}
        }
    }
    if length > MAX_BODY {
        return Err(refuse(
            413,
            format!("a body holds at most {MAX_BODY} bytes, this one {length}"),
        ));
    }
    if body.len() > length {
        return Err(refuse(400, "more body than Content-Length says"));
    }
    let mut rest = vec![0; length - body.len()];
    stream
        .read_exact(&mut rest)
        .map_err(|_| refuse(400, "the body ended before Content-Length bytes"))?;
    body.extend(rest);
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        host,
        body,
    })
}

/// The head of a request (without its blank line) and what was read of the body after it.
fn read_head(stream: &mut impl Read) -> Result<(Vec<u8>, Vec<u8>), Refusal> {
    let mut buffer = Vec::new();
    let mut chunk = [0; 1024];
    loop {
        let end = buffer.windows(4).position(|w| w == b"\r\n\r\n");
        if end.unwrap_or(buffer.len()) > MAX_HEAD {
            return Err(refuse(
                431,
                format!("a request's head holds at most {MAX_HEAD} bytes"),
            ));
        }
        if let Some(end) = end {
            let body = buffer.split_off(end + 4);
            buffer.truncate(end);
            return Ok((buffer, body));
        }
        let n = stream
            .read(&mut chunk)
            .map_err(|e| refuse(400, format!("reading the request: {e}")))?;
        if n == 0 {
            return Err(refuse(400, "the request ended before its head did"));
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

/// The reason phrase of the statuses the server answers.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Writes a whole response and closes the exchange (`Connection: close`).
pub fn write_response(
    stream: &mut impl Write,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<()> {
    // A 204 has neither a body nor its length.
    let (kind, length) = match status {
        204 => (String::new(), String::new()),
        _ => (
            format!("Content-Type: {content_type}\r\n"),
            format!("Content-Length: {}\r\n", body.len()),
        ),
    };
    let head = format!(
        "HTTP/1.1 {status} {}\r\n{kind}{length}Cache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        reason(status)
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Request, Refusal> {
        read_request(&mut text.as_bytes())
    }

    #[test]
    fn a_request_is_read_with_its_query_host_and_body() {
        let r = read(
            "POST /move?x=1&after=3 HTTP/1.1\r\nHost: 127.0.0.1:80\r\nContent-Length: 2\r\n\r\nab",
        )
        .unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/move"));
        assert_eq!(r.query_value("after"), Some("3"));
        assert_eq!(r.query_value("y"), None);
        assert_eq!(r.host.as_deref(), Some("127.0.0.1:80"));
        assert_eq!(r.body, b"ab");
    }

    #[test]
    fn bad_requests_are_refused_with_a_status() {
        let status = |text: &str| read(text).unwrap_err().status;
        assert_eq!(status("GET /\r\n\r\n"), 400);
        assert_eq!(status("GET / SPDY/3\r\n\r\n"), 400);
        assert_eq!(status("GET / HTTP/1.1\r\nHost: x"), 400);
        assert_eq!(status("GET / HTTP/1.1\r\nbroken\r\n\r\n"), 400);
        assert_eq!(
            status("POST / HTTP/1.1\r\nContent-Length: 9999999\r\n\r\n"),
            413
        );
        assert_eq!(
            status("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"),
            400
        );
        assert_eq!(
            status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD + 10));
        assert_eq!(status(&long), 431);
    }
}
