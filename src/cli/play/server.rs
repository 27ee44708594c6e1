//! The server of `play --serve`: a listener on this machine, a thread per connection (at most
//! [`MAX_CONNECTIONS`] at a time), and the routes of the page: `GET /` (the page), `GET
//! /report.css` and `GET /play.js` (its style and script; `GET /favicon.ico`, which
//! browsers ask for, has no content), `GET /state?after=V` (the game as
//! JSON, once its version is past V: the page waits there for the controller's answer) and
//! `POST /move` (the person's move, its body a move's letters or notation, as typed at the
//! terminal). The game itself runs on the main thread, which publishes each position on the
//! [`Board`] and takes the person's move from the channel `POST /move` sends it on.

use super::http::{read_request, write_response, Request};
use super::view::pick;
use anyhow::{anyhow, bail, Result};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Connections served at once; more are answered 503 at once.
const MAX_CONNECTIONS: usize = 32;
/// How long a connection may take to send its request or read the answer.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// How long `GET /state?after=V` waits for a newer version before it answers the current one
/// (the page then asks again).
const LONG_POLL: Duration = Duration::from_secs(20);

/// What the page is shown: the game's state as JSON, and the moves the person may play now.
pub struct Published {
    pub version: u64,
    json: String,
    /// The legal moves' notations while a move of the person is awaited; empty otherwise.
    moves: Vec<String>,
    over: bool,
}

/// The state the main thread publishes and the connections read.
pub struct Board {
    published: Mutex<Published>,
    changed: Condvar,
}

impl Board {
    pub fn new() -> Board {
        Board {
            published: Mutex::new(Published {
                version: 0,
                json: "{\"version\":0,\"status\":\"the game is starting\"}".into(),
                moves: Vec::new(),
                over: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Published> {
        self.published
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Publishes `view` (an object: its `version` is set here) with the moves now awaited,
    /// or the end of the game.
    pub fn publish(&self, mut view: serde_json::Value, moves: Vec<String>, over: bool) {
        let mut published = self.lock();
        published.version += 1;
        view["version"] = published.version.into();
        published.json = view.to_string();
        published.moves = moves;
        published.over = over;
        self.changed.notify_all();
    }
}

/// What every connection serves.
struct Site {
    page: String,
    stylesheet: String,
    script: &'static str,
    board: Arc<Board>,
    moves: Sender<usize>,
    /// The port, for the `Host` check.
    port: u16,
}

/// The loopback address `addr` names: `IP:PORT`, or a port alone on 127.0.0.1. Any other
/// address is refused: the page plays on this machine only.
pub fn parse_address(addr: &str) -> Result<SocketAddr> {
    let parsed = match addr.parse::<u16>() {
        Ok(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port),
        Err(_) => addr.parse::<SocketAddr>().map_err(|_| {
            anyhow!(
                "--serve {}: not an address such as 127.0.0.1:8000 or a port",
                evomcts::escape::shell(&evomcts::escape::abbreviated(addr, 60))
            )
        })?,
    };
    if !parsed.ip().is_loopback() {
        bail!(
            "--serve {parsed}: the game is served on this machine only (127.0.0.1 or ::1), not \
             to the network"
        );
    }
    Ok(parsed)
}

/// Starts serving at `addr` on a thread of its own; returns the address bound (its port
/// chosen by the system when `addr`'s is 0) and the thread, which serves until the process
/// ends.
pub fn start(
    addr: SocketAddr,
    page: String,
    stylesheet: String,
    script: &'static str,
    board: Arc<Board>,
    moves: Sender<usize>,
) -> Result<(SocketAddr, std::thread::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).map_err(|e| anyhow!("--serve {addr}: {e}"))?;
    let bound = listener.local_addr()?;
    let site = Arc::new(Site {
        page,
        stylesheet,
        script,
        board,
        moves,
        port: bound.port(),
    });
    let thread = std::thread::spawn(move || serve(listener, site));
    Ok((bound, thread))
}

/// Accepts connections for ever, each served on a thread of its own.
fn serve(listener: TcpListener, site: Arc<Site>) {
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // A connection that failed before it was accepted (or no descriptor left for
            // it): the next one is tried after a moment.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
            let _ = answer_text(&mut stream, 503, "too many connections at once");
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (site, active) = (Arc::clone(&site), Arc::clone(&active));
        std::thread::spawn(move || {
            connection(stream, &site);
            active.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// One request and its answer; a connection that fails is dropped.
fn connection(mut stream: TcpStream, site: &Site) {
    if stream.set_read_timeout(Some(IO_TIMEOUT)).is_err()
        || stream.set_write_timeout(Some(IO_TIMEOUT)).is_err()
    {
        return;
    }
    let (status, kind, body) = match read_request(&mut stream) {
        Ok(request) => route(&request, site),
        Err(refusal) => text(refusal.status, refusal.message),
    };
    let _ = write_response(&mut stream, status, kind, &body);
}

type Answer = (u16, &'static str, Vec<u8>);

fn text(status: u16, message: impl Into<String>) -> Answer {
    (
        status,
        "text/plain; charset=utf-8",
        message.into().into_bytes(),
    )
}

fn answer_text(stream: &mut TcpStream, status: u16, message: &str) -> std::io::Result<()> {
    write_response(
        stream,
        status,
        "text/plain; charset=utf-8",
        message.as_bytes(),
    )
}

/// The answer to `request`.
fn route(request: &Request, site: &Site) -> Answer {
    if !is_local_host(request.host.as_deref(), site.port) {
        return text(
            403,
            "this server answers only pages of this machine (http://127.0.0.1:PORT/)",
        );
    }
    let html = "text/html; charset=utf-8";
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/") => (200, html, site.page.clone().into_bytes()),
        ("GET", "/report.css") => (
            200,
            "text/css; charset=utf-8",
            site.stylesheet.clone().into_bytes(),
        ),
        ("GET", "/play.js") => (
            200,
            "text/javascript; charset=utf-8",
            site.script.as_bytes().to_vec(),
        ),
        ("GET", "/state") => state(request, &site.board),
        // Browsers ask for it unbidden: nothing, and no error in their console.
        ("GET", "/favicon.ico") => (204, "image/x-icon", Vec::new()),
        ("POST", "/move") => play(&request.body, site),
        (_, "/" | "/report.css" | "/play.js" | "/state" | "/move") => text(
            405,
            format!("{} is not answered at {}", request.method, request.path),
        ),
        _ => text(404, format!("nothing at {}", request.path)),
    }
}

/// Whether `host` (the request's `Host`) names this machine at `port`: a page of another
/// site, whose name was made to point here, is refused.
fn is_local_host(host: Option<&str>, port: u16) -> bool {
    let Some(host) = host else { return false };
    let Some((name, at)) = host.rsplit_once(':') else {
        return false;
    };
    at.parse() == Ok(port) && matches!(name, "127.0.0.1" | "localhost" | "[::1]")
}

/// The game's state once its version is past `after` (or after [`LONG_POLL`]).
fn state(request: &Request, board: &Board) -> Answer {
    let after = match request.query_value("after").map(str::parse::<i64>) {
        None => -1,
        Some(Ok(v)) => v,
        Some(Err(_)) => return text(400, "after= takes a version number"),
    };
    let published = board.lock();
    let (published, _) = board
        .changed
        .wait_timeout_while(published, LONG_POLL, |p| (p.version as i64) <= after)
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    (200, "application/json", published.json.clone().into_bytes())
}

/// The person's move from the page: taken when it names a legal move and one is awaited.
fn play(body: &[u8], site: &Site) -> Answer {
    let Ok(input) = std::str::from_utf8(body) else {
        return text(400, "a move is text (UTF-8)");
    };
    let mut published = site.board.lock();
    if published.moves.is_empty() {
        let why = if published.over {
            "the game is over"
        } else {
            "it is not your move: the answer is coming"
        };
        return text(409, why);
    }
    match pick(&published.moves, input) {
        Err(message) => text(400, message),
        Ok(i) => {
            if site.moves.send(i).is_err() {
                return text(503, "the game has stopped");
            }
            // Taken once: a second click before the answer is refused.
            published.moves.clear();
            (200, "application/json", b"{\"ok\":true}".to_vec())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert_eq!(parse_address("8000").unwrap().to_string(), "127.0.0.1:8000");
        assert_eq!(parse_address("[::1]:0").unwrap().port(), 0);
        assert!(parse_address("0.0.0.0:8000").is_err());
        assert!(parse_address("192.168.1.2:80").is_err());
        assert!(parse_address("here").is_err());
    }

    #[test]
    fn only_this_machine_is_a_host() {
        assert!(is_local_host(Some("127.0.0.1:8000"), 8000));
        assert!(is_local_host(Some("localhost:8000"), 8000));
        assert!(!is_local_host(Some("evil.example:8000"), 8000));
        assert!(!is_local_host(Some("127.0.0.1:8001"), 8000));
        assert!(!is_local_host(None, 8000));
    }
}
