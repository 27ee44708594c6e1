//! The person at the terminal: each position printed with the legal moves under their letters,
//! a move read from standard input (a letter or the move's notation; anything else is answered
//! and asked again), the controller's answer printed with its root statistics. The end of the
//! input leaves the game unfinished.

use super::view::{Answer, Choices, Ending, Seating, MAX_INPUT};
use super::Front;
use anyhow::Result;
use evomcts::arena::{MoveSource, Position};
use evomcts::escape;
use evomcts::search::SearchSummary;
use std::io::{BufRead, Read};

/// Moves a line holds at most when the legal moves are listed several to a line.
const MOVES_PER_LINE: usize = 8;
/// The longest notation listed several to a line; longer ones get a line each.
const SHORT_NOTATION: usize = 10;

/// One line of input.
enum Line {
    Text(String),
    /// Longer than [`MAX_INPUT`] bytes (the rest of the line was skipped).
    TooLong,
    /// Not UTF-8.
    NotText,
    /// The input ended.
    End,
}

/// Reads one line of at most [`MAX_INPUT`] bytes, skipping the rest of a longer one.
fn read_line(input: &mut impl BufRead) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let read = Read::take(&mut *input, MAX_INPUT as u64 + 1).read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if bytes.len() > MAX_INPUT && bytes.last() != Some(&b'\n') {
        // The rest of the line, in bounded pieces.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = Read::take(&mut *input, MAX_INPUT as u64).read_until(b'\n', &mut rest)?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Line::TooLong);
    }
    Ok(String::from_utf8(bytes).map_or(Line::NotText, Line::Text))
}

/// Prints `text` line by line, each line's hidden characters escaped (names come from specs).
fn print_lines(text: &str) -> Result<()> {
    for line in text.lines() {
        outln!("{}", escape::terminal(line))?;
    }
    Ok(())
}

/// The person at the terminal, their moves read from `input`.
pub struct Terminal<R> {
    input: R,
    seating: Seating,
    top: usize,
    /// An error that stopped the game (reading the input, printing): reported instead of
    /// "unfinished".
    failed: Option<anyhow::Error>,
}

impl<R: BufRead> Terminal<R> {
    pub fn new(input: R, seating: Seating, top: usize) -> Self {
        Terminal {
            input,
            seating,
            top,
            failed: None,
        }
    }

    /// The position and the legal moves.
    fn show_position(&self, at: &dyn Position, choices: &Choices) -> Result<()> {
        outln!()?;
        match at.text() {
            Some(text) => print_lines(&text)?,
            None => outln!("(this game draws no picture of its positions)")?,
        }
        let n = choices.moves.len();
        outln!(
            "your move, {} — {n} legal move{}:",
            self.seating.who(self.seating.person),
            if n == 1 { "" } else { "s" }
        )?;
        let labelled: Vec<(String, String)> = (choices.labelled().into_iter())
            .map(|(key, n)| (format!("{key}:"), escape::terminal(&n)))
            .collect();
        let widest = |part: fn(&(String, String)) -> &String| {
            labelled
                .iter()
                .map(|l| part(l).chars().count())
                .max()
                .unwrap_or(0)
        };
        let (keys, moves) = (widest(|l| &l.0), widest(|l| &l.1));
        let per_line = if moves <= SHORT_NOTATION {
            MOVES_PER_LINE
        } else {
            1
        };
        for line in labelled.chunks(per_line) {
            let items: Vec<String> = (line.iter())
                .map(|(key, n)| format!("{key:<keys$} {n:<moves$}"))
                .collect();
            outln!("  {}", items.join("   ").trim_end())?;
        }
        Ok(())
    }

    /// Asks until a legal move is typed; `None` at the end of the input.
    fn ask(&mut self, choices: &Choices) -> Result<Option<serde_json::Value>> {
        loop {
            out!("move> ")?;
            let reply = match read_line(&mut self.input)? {
                Line::Text(text) => choices.pick(&text),
                Line::TooLong => Err(format!(
                    "that line is longer than {MAX_INPUT} bytes: type a move's letter or the move"
                )),
                Line::NotText => {
                    Err("that line is not text (UTF-8): type a move's letter or the move".into())
                }
                Line::End => {
                    outln!()?;
                    return Ok(None);
                }
            };
            match reply {
                Ok(mv) => return Ok(Some(mv)),
                Err(message) => outln!("{message}")?,
            }
        }
    }

    fn choose_or_fail(&mut self, at: &dyn Position) -> Result<Option<serde_json::Value>> {
        let choices = Choices::of(at);
        self.show_position(at, &choices)?;
        let mv = self.ask(&choices)?;
        if let Some(mv) = &mv {
            outln!(
                "{} plays {}",
                self.seating.who(self.seating.person),
                super::view::notation(mv)
            )?;
        }
        Ok(mv)
    }

    fn show_answer(&self, answer: &Answer) -> Result<()> {
        print_lines(&answer.line)?;
        if let Some(table) = &answer.table {
            print_lines(&table.to_text())?;
        }
        Ok(())
    }
}

impl<R: BufRead> MoveSource for Terminal<R> {
    fn root_children(&self) -> usize {
        self.top
    }

    fn choose(&mut self, at: &dyn Position) -> Option<serde_json::Value> {
        if self.failed.is_some() {
            return None;
        }
        self.choose_or_fail(at).unwrap_or_else(|e| {
            self.failed = Some(e);
            None
        })
    }

    fn answered(
        &mut self,
        mv: serde_json::Value,
        search: Option<&SearchSummary<serde_json::Value>>,
    ) {
        if self.failed.is_some() {
            return;
        }
        let answer = Answer::new(&self.seating, &mv, search);
        if let Err(e) = self.show_answer(&answer) {
            self.failed = Some(e);
        }
    }
}

impl<R: BufRead> Front for Terminal<R> {
    fn unfinished(&mut self) -> anyhow::Error {
        self.failed.take().unwrap_or_else(|| {
            anyhow::anyhow!(
                "standard input ended before the game did: the game is left unfinished and \
                 nothing is recorded"
            )
        })
    }

    fn finish(&mut self, ending: &Ending, recorded: &str) -> Result<()> {
        outln!("\nthe final position:")?;
        if let Some(board) = &ending.board {
            print_lines(board)?;
        }
        print_lines(&ending.result)?;
        outln!("{recorded}")?;
        Ok(())
    }
}
