//! The person in a browser (`play --serve`): the page (`play.js` on the report's style and
//! HTML helpers) shows the position as the report's history pages do (the game's text in a
//! `<pre>`), the legal moves as buttons, the controller's answer with its root statistics as
//! the report's tables, and the result; the server (`server.rs`) takes the clicks. The
//! terminal gets a line per move.

use super::server::{self, Board};
use super::view::{notation, Answer, Choices, Ending, Seating};
use super::{Front, Setup};
use anyhow::{anyhow, Result};
use evomcts::analysis::report::html;
use evomcts::arena::{MoveSource, Position};
use evomcts::escape;
use evomcts::search::SearchSummary;
use serde_json::json;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;

/// The page's script.
const SCRIPT: &str = include_str!("play.js");

/// The page's own style, after the report's.
const STYLE: &str = "
/* evomcts play */
#moves { display: flex; flex-wrap: wrap; gap: 0.4em; }
#moves button { font: inherit; font-family: ui-monospace, \"DejaVu Sans Mono\", monospace; min-width: 3em; padding: 0.3em 0.6em; }
#error { color: #a01010; }
#result { font-size: 1.2em; font-weight: 600; }
";

pub struct Browser {
    board: Arc<Board>,
    moves: Receiver<usize>,
    server: Option<std::thread::JoinHandle<()>>,
    seating: Seating,
    title: String,
    top: usize,
    /// Every move so far, as `you (player 1): 3`.
    log: Vec<String>,
    answer: Option<Answer>,
    failed: Option<anyhow::Error>,
}

impl Browser {
    /// Starts the server at `addr` and prints the page's address.
    pub fn start(addr: &str, setup: &Setup, top: usize) -> Result<Browser> {
        let addr = server::parse_address(addr)?;
        let title = format!(
            "{}: {} vs {}",
            setup.spec.game.label(),
            setup.seating.who(0),
            setup.seating.who(1)
        );
        let board = Arc::new(Board::new());
        let (sender, moves) = channel();
        let stylesheet = format!("{}{STYLE}", evomcts::analysis::report::STYLESHEET);
        let (bound, thread) = server::start(
            addr,
            page(&title),
            stylesheet,
            SCRIPT,
            Arc::clone(&board),
            sender,
        )?;
        outln!("open http://{bound}/ in a browser to play; Ctrl-C stops the server (an unfinished game is not recorded)")?;
        Ok(Browser {
            board,
            moves,
            server: Some(thread),
            seating: setup.seating.clone(),
            title,
            top,
            log: Vec::new(),
            answer: None,
            failed: None,
        })
    }

    /// The game as the page shows it.
    fn view(
        &self,
        board: Option<String>,
        choices: &[(String, String)],
        ending: Option<(&Ending, &str)>,
    ) -> serde_json::Value {
        let status = match ending {
            Some(_) => "the game is over".to_string(),
            None if choices.is_empty() => "waiting for the answer".into(),
            None => format!("your move, {}", self.seating.who(self.seating.person)),
        };
        json!({
            "title": self.title,
            "status": status,
            "board": board,
            "your_turn": !choices.is_empty(),
            "moves": choices.iter().map(|(key, n)| json!({"key": key, "notation": n})).collect::<Vec<_>>(),
            "log": self.log,
            "answer": self.answer.as_ref().map(|a| json!({
                "line": a.line,
                "table": a.table.as_ref().map(html::table),
            })),
            "result": ending.map(|(e, _)| e.result.clone()),
            "recorded": ending.map(|(_, r)| r.to_string()),
        })
    }

    fn awaited_move(&mut self, at: &dyn Position) -> Result<Option<serde_json::Value>> {
        let choices = Choices::of(at);
        let view = self.view(at.text(), &choices.labelled(), None);
        self.board.publish(view, choices.notations.clone(), false);
        let Ok(i) = self.moves.recv() else {
            return Err(anyhow!("the server stopped before the game ended"));
        };
        let mv = (choices.moves.get(i).cloned())
            .ok_or_else(|| anyhow!("the server took move {i} of {}", choices.moves.len()))?;
        let line = format!(
            "{} plays {}",
            self.seating.who(self.seating.person),
            notation(&mv)
        );
        outln!("{}", escape::terminal(&line))?;
        self.log.push(line);
        Ok(Some(mv))
    }
}

impl MoveSource for Browser {
    fn root_children(&self) -> usize {
        self.top
    }

    fn choose(&mut self, at: &dyn Position) -> Option<serde_json::Value> {
        if self.failed.is_some() {
            return None;
        }
        self.awaited_move(at).unwrap_or_else(|e| {
            self.failed = Some(e);
            None
        })
    }

    fn answered(
        &mut self,
        mv: serde_json::Value,
        search: Option<&SearchSummary<serde_json::Value>>,
    ) {
        let answer = Answer::new(&self.seating, &mv, search);
        if let Err(e) = outln!("{}", escape::terminal(&answer.line)) {
            self.failed.get_or_insert(e);
        }
        self.log.push(answer.line.clone());
        self.answer = Some(answer);
    }
}

impl Front for Browser {
    fn unfinished(&mut self) -> anyhow::Error {
        self.failed
            .take()
            .unwrap_or_else(|| anyhow!("the game ended unfinished: nothing is recorded"))
    }

    /// Shows the result on the page, then serves it until the process is stopped.
    fn finish(&mut self, ending: &Ending, recorded: &str) -> Result<()> {
        let view = self.view(ending.board.clone(), &[], Some((ending, recorded)));
        self.board.publish(view, Vec::new(), true);
        outln!("{}", escape::terminal(&ending.result))?;
        outln!("{}", escape::terminal(recorded))?;
        outln!("the page shows the result until Ctrl-C stops the server")?;
        if let Some(server) = self.server.take() {
            server
                .join()
                .map_err(|_| anyhow!("the server stopped with a panic"))?;
        }
        Ok(())
    }
}

/// The page: empty panels that `play.js` fills from `GET /state`.
fn page(title: &str) -> String {
    let body = format!(
        r#"<header>
<h1 id="title">{title}</h1>
<p id="status" class="note">loading…</p>
</header>
<main>
{position}{moves}{answer}{result}{log}</main>
"#,
        title = escape::html(title),
        position = html::section("position", "Position", "<pre class=\"position\" id=\"board\"></pre>\n"),
        moves = html::section(
            "your-move",
            "Your move",
            "<div id=\"moves\"></div>\n<p id=\"error\"></p>\n"
        ),
        answer = html::section(
            "answer",
            "The controller's answer",
            "<p id=\"answer-line\" class=\"note\">none yet</p>\n<div id=\"search\"></div>\n"
        ),
        result = html::section(
            "end",
            "Result",
            "<p id=\"result\" class=\"note\">the game is not over</p>\n<p id=\"recorded\" class=\"note\"></p>\n"
        ),
        log = html::section("moves-played", "Moves played", "<ol id=\"log\"></ol>\n"),
    );
    html::page(title, "report.css", &body, &["play.js"])
}
