//! What the progress lines of leagues, replays and evolution runs share: durations and rates
//! for people, and the time left of work whose items cost very different amounts.
//!
//! Nothing here affects results; it only decides what is printed on stderr.
//!
//! Every line for stderr goes through [`note`] (the `note!` macro), never `eprintln!`: progress,
//! warnings and standings are not a command's product, and `eprintln!` panics when the reader of
//! stderr has gone (`evomcts league … 2>&1 | head -c 1`), which would stop a league or an
//! evolution run after a few games with nothing lost on screen but the work itself.

/// Writes to stderr, ignoring failure: a reader that has gone must not stop the work (see the
/// module comment).
pub fn note(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `eprintln!` that cannot fail: a line for stderr through [`note`].
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::progress::note(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// An error and its causes on one line, each cause once, as the command line prints it after
/// `error: ` (and the Python module raises it): library errors already quote their source in
/// their own message, so a plain `{:#}` would repeat it.
pub fn error_message(err: &anyhow::Error) -> String {
    let mut message = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(": ");
            message.push_str(&cause);
        }
    }
    message
}

/// Lines a message quotes as they are, each on a line of its own (the end of a job's log):
/// shown after a line break, each indented by two spaces, then a line break, so that an error
/// whose `source` this is reads on the terminal as the log does. [`terminal_error_message`]
/// keeps these line breaks, and only these, escaping every other one as `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotedLines(pub Vec<String>);

impl QuotedLines {
    /// The block as a message holds it, each line as `shown` gives it.
    fn block(&self, shown: impl Fn(&str) -> String) -> String {
        let mut text: String = self.0.iter().map(|l| format!("\n  {}", shown(l))).collect();
        if self.0.is_empty() {
            text.push_str("\n  (nothing)");
        }
        text.push('\n');
        text
    }
}

impl std::fmt::Display for QuotedLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.block(str::to_string))
    }
}

impl std::error::Error for QuotedLines {}

/// [`error_message`] as the terminal shows it: hidden characters escaped
/// ([`crate::escape::terminal`]: an ESC or a line break in a name or a path shows as `\u{1b}`
/// or `\n`), except the line breaks of the [`QuotedLines`] the error holds as a cause, whose
/// lines are each escaped on a line of their own.
pub fn terminal_error_message(err: &anyhow::Error) -> String {
    let message = error_message(err);
    let quoted = err
        .chain()
        .find_map(|cause| cause.downcast_ref::<QuotedLines>());
    let Some((quoted, at, len)) = quoted.and_then(|q| {
        let text = q.to_string();
        message.find(&text).map(|at| (q, at, text.len()))
    }) else {
        return crate::escape::terminal(&message);
    };
    format!(
        "{}{}{}",
        crate::escape::terminal(&message[..at]),
        quoted.block(crate::escape::terminal),
        crate::escape::terminal(&message[at + len..])
    )
}

/// A duration for people: `41s`, `3m05s`, `2h07m`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// A rate for people, with two or three significant digits and the time unit that keeps the
/// number at least 1: `2.7 games/s`, `14 games/s`, `8.5 games/min`, `3.0 games/h`.
pub fn rate(per_second: f64, unit: &str) -> String {
    let (value, per) = if per_second >= 1.0 {
        (per_second, "s")
    } else if per_second * 60.0 >= 1.0 {
        (per_second * 60.0, "min")
    } else {
        (per_second * 3600.0, "h")
    };
    if value >= 10.0 {
        format!("{value:.0} {unit}/{per}")
    } else {
        format!("{value:.1} {unit}/{per}")
    }
}

/// Items of work that cost about the same, e.g. the games of one league match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorkGroup {
    /// What one item is expected to cost before any is measured, in any unit shared by all
    /// groups (e.g. simulations per game); only ratios between groups matter.
    pub prior_cost: f64,
    /// Items finished and the seconds they took together (each on one worker).
    pub finished: u32,
    pub finished_seconds: f64,
    /// Items not finished yet.
    pub remaining: u32,
}

impl WorkGroup {
    fn measured(&self) -> Option<f64> {
        (self.finished > 0).then(|| self.finished_seconds / self.finished as f64)
    }
}

/// Seconds until every remaining item is done on `workers` parallel workers, or `None` before
/// any item has been measured.
///
/// A group's cost per item is its own measured mean once one of its items finished; before
/// that, its prior cost converted to seconds by the rate all measured items show
/// (Σ seconds / Σ prior cost). Items that are slow are often scheduled first, so a plain
/// items-per-second rate misleads early on; weighting each remaining item by its own group's
/// cost does not. The estimate is the remaining cost shared by the workers, and never less
/// than the dearest single remaining item, which one worker must play alone.
pub fn weighted_eta(groups: &[WorkGroup], workers: usize) -> Option<f64> {
    if groups.iter().all(|g| g.remaining == 0) {
        return Some(0.0);
    }
    let measured: Vec<&WorkGroup> = groups.iter().filter(|g| g.finished > 0).collect();
    if measured.is_empty() {
        return None;
    }
    let seconds: f64 = measured.iter().map(|g| g.finished_seconds).sum();
    let prior: f64 = measured
        .iter()
        .map(|g| g.finished as f64 * g.prior_cost)
        .sum();
    let items: u32 = measured.iter().map(|g| g.finished).sum();
    let unmeasured_cost = |g: &WorkGroup| {
        if prior > 0.0 && g.prior_cost > 0.0 {
            g.prior_cost * seconds / prior
        } else {
            // Without usable priors every unmeasured item costs the mean measured item.
            seconds / items as f64
        }
    };
    let costs = groups.iter().filter(|g| g.remaining > 0).map(|g| {
        (
            g.remaining,
            g.measured().unwrap_or_else(|| unmeasured_cost(g)),
        )
    });
    let (total, dearest) = costs.fold((0.0, 0.0f64), |(total, dearest), (n, cost)| {
        (total + n as f64 * cost, dearest.max(cost))
    });
    Some((total / workers.max(1) as f64).max(dearest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_message_names_each_cause_once() {
        let inner = anyhow::anyhow!("runs/a.ron:3:5: expected `)`");
        let quoted = inner.context("invalid spec: runs/a.ron:3:5: expected `)`");
        assert_eq!(
            error_message(&quoted),
            "invalid spec: runs/a.ron:3:5: expected `)`"
        );
        let err = anyhow::anyhow!("no such file").context("invalid grammar");
        assert_eq!(error_message(&err), "invalid grammar: no such file");
    }

    /// A quoted log's lines stay lines, each escaped (an ESC, a tab, a carriage return); a line
    /// break anywhere else in the message (a path's) is shown as `\n`.
    #[test]
    fn quoted_lines_keep_their_line_breaks_and_nothing_else_does() {
        #[derive(Debug, thiserror::Error)]
        #[error("the job in /tmp/a\nb failed; its log ends:{tail}resume it")]
        struct Failed {
            #[source]
            tail: QuotedLines,
        }
        let tail = QuotedLines(vec![
            "study: phase 1/6".into(),
            "\u{1b}[31merror:\t/tmp/P/x: No space left on device\r".into(),
        ]);
        let err = anyhow::Error::new(Failed { tail });
        assert_eq!(
            terminal_error_message(&err),
            "the job in /tmp/a\\nb failed; its log ends:\n  study: phase 1/6\n  \\u{1b}[31merror:\\t/tmp/P/x: No space left on device\\r\nresume it"
        );
        // The raw message (what Python raises) holds the same lines, unescaped.
        assert_eq!(
            error_message(&err),
            "the job in /tmp/a\nb failed; its log ends:\n  study: phase 1/6\n  \u{1b}[31merror:\t/tmp/P/x: No space left on device\r\nresume it"
        );
        let empty = anyhow::Error::new(Failed {
            tail: QuotedLines(Vec::new()),
        });
        assert_eq!(
            terminal_error_message(&empty),
            "the job in /tmp/a\\nb failed; its log ends:\n  (nothing)\nresume it"
        );
        // Without quoted lines, every line break is escaped, as before.
        let plain = anyhow::anyhow!("a\nb");
        assert_eq!(terminal_error_message(&plain), "a\\nb");
    }

    #[test]
    fn durations_and_rates_read_as_people_write_them() {
        assert_eq!(duration(41.4), "41s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(7620.0), "2h07m");
        assert_eq!(rate(2.6617, "games"), "2.7 games/s");
        assert_eq!(rate(14.2, "games"), "14 games/s");
        assert_eq!(rate(0.1417, "games"), "8.5 games/min");
        assert_eq!(rate(1.0 / 1200.0, "games"), "3.0 games/h");
    }

    #[test]
    fn slow_groups_weigh_by_their_own_cost() {
        // A slow match (prior 10 per game) measured at 10 s a game with 8 games left, and a
        // fast one (prior 1) not yet measured with 10 left: the fast one is priced by the slow
        // one's seconds per unit of prior, 1 s a game. (8·10 + 10·1) / 2 workers = 45 s, where
        // a plain rate (2 games in the first 10 s) would say 18 games at 5 s = 90 s.
        let slow = WorkGroup {
            prior_cost: 10.0,
            finished: 2,
            finished_seconds: 20.0,
            remaining: 8,
        };
        let fast = WorkGroup {
            prior_cost: 1.0,
            finished: 0,
            finished_seconds: 0.0,
            remaining: 10,
        };
        assert_eq!(weighted_eta(&[slow, fast], 2), Some(45.0));
        // Once the fast match is measured, its own mean replaces the prior.
        let fast_measured = WorkGroup {
            finished: 2,
            finished_seconds: 4.0,
            remaining: 8,
            ..fast
        };
        assert_eq!(weighted_eta(&[slow, fast_measured], 2), Some(48.0));
    }

    #[test]
    fn the_estimate_needs_a_measurement_and_never_undercuts_one_item() {
        let unmeasured = WorkGroup {
            prior_cost: 5.0,
            remaining: 3,
            ..Default::default()
        };
        assert_eq!(weighted_eta(&[unmeasured], 4), None);
        let done = WorkGroup {
            prior_cost: 5.0,
            finished: 3,
            finished_seconds: 90.0,
            remaining: 0,
        };
        assert_eq!(weighted_eta(&[done], 4), Some(0.0));
        // One game of 30 s left on 4 workers still takes 30 s.
        let last = WorkGroup {
            remaining: 1,
            ..done
        };
        assert_eq!(weighted_eta(&[last], 4), Some(30.0));
        // Without priors an unmeasured item costs the mean measured item.
        let no_prior = WorkGroup {
            prior_cost: 0.0,
            remaining: 6,
            ..Default::default()
        };
        assert_eq!(
            weighted_eta(&[last, no_prior], 2),
            Some((30.0 + 180.0) / 2.0)
        );
    }
}
