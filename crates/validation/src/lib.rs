//! Measuring an evolved formula where evolution's selection noise cannot help it.
//!
//! - `ValidateSpec`: the formula's MCTS against a baseline (MCTS-UCT at its best constant)
//!   on tile sequences of the validation namespace (see `evolve::namespace`), which evolution
//!   never plays, both seatings of every sequence. Reported: win rate with its Wilson 95%
//!   interval, the mean score difference per sequence (the mean of its two seatings) with a 95%
//!   interval, and the Wilcoxon signed-rank p of those per-sequence differences (the pair of
//!   seatings is the unit of independence).
//! - `sweep`: tunes a baseline's constants on sweep sequences (evolution's namespace, never
//!   validation's), so the validation baseline is chosen without looking at validation games;
//!   it plays through [`play_pairings`] too.
//! - `bandit_baselines`: UCB1 at its best c (chosen on sweep runs), UCB1-Tuned and Thompson
//!   sampling beside a bandit champion, all on the same fresh runs.
//!
//! Games are written to `games.csv` in chunks as they finish; a run resumes after the last
//! complete chunk and writes the same bytes as an uninterrupted one. Every game's seeds come
//! from its tile seed and seat, so results do not depend on the thread count.
//!
//! Layering: above `evolve` (its seed namespaces, the bandit domain, the work of a job step),
//! `arena`, `slurm`'s job steps, `runfs` and `stats`; `evolve` never uses it.

use evomcts_arena::{play_pairing_games, GameChoice, Pairing, SeatingScores};
use evomcts_evolve::namespace::validation_tile_seed;
use evomcts_evolve::work::{PairingTask, Work};
use evomcts_games::carcassonne::Rules;
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::runfs::{resolve_controller, FileError, SpecFile, SpecFileError};
use evomcts_records::stats::{wilcoxon_signed_rank, wilson_interval};
use evomcts_search::mcts::{MctsSettings, Selection};
use evomcts_search::ControllerSpec;
use evomcts_steps::launch::StepRunner;
use evomcts_steps::steps::StepError;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// A formula against tuned UCT on unseen tile sequences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateSpec {
    /// Names the output folder: `runs/validate/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed of the validation sequences.
    pub seed: u64,
    /// Tile sequences; each is played twice, once per seating.
    pub sequences: usize,
    /// The controller under test (MCTS with `selection: Formula(..)` or `FormulaFile(..)`).
    pub candidate: ControllerSpec,
    /// What it is measured against: MCTS-UCT at the constant the sweep chose.
    pub baseline: ControllerSpec,
    /// The game played: Carcassonne (under `rules`) unless named, e.g. `Pig(target: 100)`;
    /// left out of the stored spec when Carcassonne.
    #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    #[serde(default)]
    pub rules: Rules,
    /// A sequential test that ends the validation once it decides (`sprt`); left out of the
    /// stored spec when absent, so specs without it keep their text and hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequential: Option<evomcts_records::sequential::SprtSpec>,
}

const MAX_SEQUENCES: usize = 1_000_000;

fn check_name(name: &str) -> Result<(), (String, String)> {
    evomcts_records::runfs::check_plain_name("the name", name).map_err(|m| ("name".into(), m))
}

fn check_sequences(n: usize) -> Result<(), (String, String)> {
    if !(2..=MAX_SEQUENCES).contains(&n) {
        return Err((
            "sequences".into(),
            format!("must be between 2 and {MAX_SEQUENCES}, got {n}"),
        ));
    }
    Ok(())
}

/// Checks each controller a spec names for the game it plays, and the game's rules: an error
/// naming the field.
fn check_controllers(
    game: GameChoice,
    rules: &Rules,
    controllers: &[(&str, &ControllerSpec)],
) -> Result<(), (String, String)> {
    game.check_startable()
        .map_err(|m| ("game".to_string(), m))?;
    for (field, controller) in controllers {
        controller
            .validate()
            .map_err(|e| (field.to_string(), e.to_string()))?;
        game.check_controller(controller)
            .map_err(|e| (field.to_string(), e))?;
    }
    game.check_rules(rules)
}

/// The tile seeds of `sequences` sequences, the `j`-th being `seed_of(j)`.
fn sequence_seeds(sequences: usize, seed_of: impl Fn(u64) -> u64) -> Vec<u64> {
    (0..sequences as u64).map(seed_of).collect()
}

impl SpecFile for ValidateSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        let objective = self.game.objective();
        self.candidate.fill_defaults(objective);
        self.baseline.fill_defaults(objective);
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        for (name, controller) in [
            ("candidate", &mut self.candidate),
            ("baseline", &mut self.baseline),
        ] {
            resolve_controller(controller, base)
                .map_err(|(field, message)| (format!("{name}.{field}"), message))?;
        }
        Ok(())
    }
}

impl ValidateSpec {
    pub fn validate(&self) -> Result<(), (String, String)> {
        check_name(&self.name)?;
        check_sequences(self.sequences)?;
        if let Some(test) = &self.sequential {
            test.check()
                .map_err(|(field, m)| (format!("sequential.{field}"), m))?;
        }
        check_controllers(
            self.game,
            &self.rules,
            &[("candidate", &self.candidate), ("baseline", &self.baseline)],
        )
    }

    /// The tile seeds played, all in the validation namespace.
    pub fn tile_seeds(&self) -> Vec<u64> {
        sequence_seeds(self.sequences, |j| validation_tile_seed(self.seed, j))
    }
}

/// One played game as `games.csv` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub pairing: usize,
    pub sequence: usize,
    pub tile_seed: u64,
    pub candidate_seat: usize,
    pub candidate_score: f64,
    pub other_score: f64,
}

const HEADER: &str = evomcts_records::runfs::VALIDATION_ROWS_HEADER;

fn row_text(r: &GameRow) -> String {
    format!(
        "{},{},{},{},{},{}\n",
        r.pairing, r.sequence, r.tile_seed, r.candidate_seat, r.candidate_score, r.other_score
    )
}

#[derive(Debug, thiserror::Error)]
pub enum ValidateError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{dir} holds games of a different spec; resume it with its own spec ({dir}/spec.ron) or choose another --out")]
    SpecChanged { dir: String },
    #[error("{dir} holds games (games.csv) but no spec.ron, so nothing says which spec played them: put its spec.ron back, or choose another --out")]
    SpecMissing { dir: String },
    #[error("{dir} already holds games; pass --resume to continue, or choose another --out")]
    AlreadyStarted { dir: String },
    #[error("sequence {sequence} (tile seed {tile_seed}) of `{pairing}`: {message}")]
    Game {
        pairing: String,
        sequence: usize,
        tile_seed: u64,
        message: String,
    },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error(transparent)]
    Steps(#[from] StepError),
    #[error(transparent)]
    Lock(#[from] evomcts_records::runfs::LockError),
}

fn io_error(file: &Path, e: impl std::fmt::Display) -> ValidateError {
    FileError::io(file, e).into()
}

/// Writes `text` to `path` whole or not at all (`runfs::write_file`).
fn write_file(path: &Path, text: &str) -> Result<(), ValidateError> {
    Ok(evomcts_records::runfs::write_file(path, text)?)
}

/// The rows of `games.csv`, each checked to be a game of `game` that could have been played:
/// a row no game produces (`NaN`, a score out of range, a pair of scores the game cannot end
/// with, a seat other than 0 or 1) is refused with its line, as a bad record is.
fn read_rows(path: &Path, game: GameChoice) -> Result<Vec<GameRow>, ValidateError> {
    let Some(table) = Table::read(path, HEADER, "a validation's games").map_err(FileError::from)?
    else {
        return Ok(Vec::new());
    };
    let corrupt = |e: CsvError| ValidateError::from(FileError::from(e));
    let mut rows = Vec::new();
    for row in table.rows() {
        let int = |k: usize| row.parse::<u64>(k, "a whole number").map_err(corrupt);
        let score = |k: usize| -> Result<f64, ValidateError> {
            let value = row.parse::<f64>(k, "a number").map_err(corrupt)?;
            game.check_final_score(value)
                .map_err(|m| corrupt(row.field_error(k, m)))?;
            Ok(value)
        };
        let seat = int(3)?;
        if seat > 1 {
            return Err(corrupt(row.field_error(
                3,
                format!("the candidate's seat is 0 or 1, got {seat}"),
            )));
        }
        let scores = (score(4)?, score(5)?);
        game.check_result(evomcts_arena::by_seat(seat as usize, scores))
            .map_err(|m| corrupt(row.error(format!("fields 5 and 6: {m}"))))?;
        rows.push(GameRow {
            pairing: int(0)? as usize,
            sequence: int(1)? as usize,
            tile_seed: int(2)?,
            candidate_seat: seat as usize,
            candidate_score: scores.0,
            other_score: scores.1,
        });
    }
    Ok(rows)
}

/// Checks that `rows` are the first tasks of `tasks` (pairing, sequence), both seatings each
/// in order, on the tile seeds of their sequences: an error naming the line of `file` that is
/// not.
fn check_schedule(
    rows: &[GameRow],
    tasks: &[(usize, usize)],
    tile_seeds: &[u64],
    file: &Path,
) -> Result<(), ValidateError> {
    for (k, r) in rows.iter().enumerate() {
        let (p, j) = tasks
            .get(k / 2)
            .copied()
            .unwrap_or((usize::MAX, usize::MAX));
        if r.pairing != p
            || r.sequence != j
            || r.candidate_seat != k % 2
            || r.tile_seed != tile_seeds[j.min(tile_seeds.len() - 1)]
        {
            return Err(
                FileError::corrupt(file, k + 2, "does not belong to this spec's schedule").into(),
            );
        }
    }
    Ok(())
}

/// What a validation or a sweep takes besides its spec (`frame::RunOptions`; `stop_after`
/// counts tasks, pairing × sequence).
pub use evomcts_steps::frame::RunOptions as PlayOptions;

/// Tasks written per chunk.
const CHUNK: usize = 16;

/// Plays both seatings of every (sequence, pairing) task, sequence-major, into
/// `<out>/games.csv`, resuming after the rows already there. `spec_text` is written to
/// `<out>/spec.ron` and must match on resume.
pub fn play_pairings(
    pairings: &[Pairing],
    tile_seeds: &[u64],
    game: GameChoice,
    rules: Rules,
    spec_text: &str,
    opts: &PlayOptions,
) -> Result<Vec<GameRow>, ValidateError> {
    play_pairings_until(pairings, tile_seeds, game, rules, spec_text, opts, None)
}

/// A rule that ends a schedule early: given the rows so far, the number of tasks after which
/// it is decided (`None`: not yet). It must depend on those tasks' rows alone, so that the
/// decision is the same however the rows were come by (threads, chunks, resumes).
pub type StopRule<'a> = &'a dyn Fn(&[GameRow]) -> Option<usize>;

/// [`play_pairings`], ending early under `until`: tasks are played in chunks that end at
/// multiples of the chunk size whatever the resume point (and, under a stop rule, on an
/// allocation too), and once the rule says the first `k` tasks decide, no chunk past the one
/// holding task `k` is started, so the rows written are the same for an interrupted and an
/// uninterrupted run.
pub fn play_pairings_until(
    pairings: &[Pairing],
    tile_seeds: &[u64],
    game: GameChoice,
    rules: Rules,
    spec_text: &str,
    opts: &PlayOptions,
    until: Option<StopRule>,
) -> Result<Vec<GameRow>, ValidateError> {
    if opts.threads == Some(0) {
        return Err(ValidateError::NoThreads);
    }
    let dir = &opts.out_dir;
    // One process per folder: two drivers of one validation would append the same rows twice.
    let _lock = evomcts_records::runfs::RunLock::open_run_folder(
        dir,
        evomcts_records::runfs::RunKind::Validation,
        "validate",
    )?;
    let spec_file = dir.join("spec.ron");
    let games_file = dir.join("games.csv");
    let dir_name = dir.display().to_string();
    match evomcts_records::runfs::read_capped_text(
        &spec_file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    ) {
        Ok(old) if old != spec_text => return Err(ValidateError::SpecChanged { dir: dir_name }),
        Ok(_) if !opts.resume && games_file.exists() => {
            return Err(ValidateError::AlreadyStarted { dir: dir_name })
        }
        Ok(_) => {}
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(io_error(&spec_file, e));
        }
        Err(_) => {
            if games_file.exists() {
                return Err(ValidateError::SpecMissing { dir: dir_name });
            }
            write_file(&spec_file, spec_text)?;
        }
    }
    evomcts_steps::launch::clear_left_steps(dir, opts.srun.as_ref())?;
    let tasks: Vec<(usize, usize)> = (0..tile_seeds.len())
        .flat_map(|j| (0..pairings.len()).map(move |p| (p, j)))
        .collect();
    let mut rows = read_rows(&games_file, game)?;
    // Keep whole tasks only (a crash can leave half a chunk; chunks are written at once,
    // but be safe), and check the rows are the tasks they claim to be.
    let done = rows.len() / 2;
    rows.truncate(done * 2);
    check_schedule(&rows, &tasks, tile_seeds, &games_file)?;
    {
        // Rewrite the kept rows, so an interrupted tail is gone before appending.
        let mut text = String::from(HEADER);
        text.push('\n');
        for r in &rows {
            text.push_str(&row_text(r));
        }
        write_file(&games_file, &text)?;
    }
    let pool =
        evomcts_steps::frame::RunPool::new(opts.threads, Some(&game)).expect("a thread pool");
    let started = Instant::now();
    let mut stop = opts.stop_after.unwrap_or(usize::MAX).min(tasks.len());
    let mut next = done;
    let mut file =
        evomcts_records::runfs::open_own(&games_file, std::fs::OpenOptions::new().append(true))
            .map_err(|e| io_error(&games_file, e))?;
    let mut finished_steps = None;
    loop {
        if let Some(decided) = until.and_then(|rule| rule(&rows)) {
            stop = stop.min(decided.div_ceil(CHUNK) * CHUNK).min(tasks.len());
        }
        if next >= stop {
            break;
        }
        // On an allocation, every remaining game is one step: its records survive a failed
        // task, and the rows are appended in order once all are in.
        let end = if opts.srun.is_some() && until.is_none() {
            stop
        } else {
            ((next / CHUNK + 1) * CHUNK).min(stop)
        };
        let chunk = &tasks[next..end];
        let games: Vec<(usize, u64)> = chunk.iter().map(|&(p, j)| (p, tile_seeds[j])).collect();
        let played: Vec<Result<SeatingScores, String>> = match &opts.srun {
            Some(srun) => {
                let work = Work::Pairings {
                    game,
                    rules,
                    pairings: pairings.to_vec(),
                    tasks: games
                        .iter()
                        .map(|&(pairing, tile_seed)| PairingTask { pairing, tile_seed })
                        .collect(),
                };
                let runner = StepRunner::new(dir, srun.clone());
                runner.set_context("validation");
                let values = runner.play(&work, &|| {})?;
                finished_steps = Some(runner);
                values
                    .into_iter()
                    .map(|v| Ok([(v[0], v[1]), (v[2], v[3])]))
                    .collect()
            }
            None => pool
                .install(|| play_pairing_games(pairings, game, rules, &games, &|_| {}, &|_, _| {})),
        };
        let results = chunk.iter().zip(played).map(|(&(p, j), result)| {
            result.map_err(|message| ValidateError::Game {
                pairing: pairings[p].label.clone(),
                sequence: j,
                tile_seed: tile_seeds[j],
                message,
            })
        });
        let mut text = String::new();
        for (&(p, j), result) in chunk.iter().zip(results) {
            for (seat, (mine, theirs)) in result?.into_iter().enumerate() {
                let row = GameRow {
                    pairing: p,
                    sequence: j,
                    tile_seed: tile_seeds[j],
                    candidate_seat: seat,
                    candidate_score: mine,
                    other_score: theirs,
                };
                text.push_str(&row_text(&row));
                rows.push(row);
            }
        }
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_data())
            .and_then(|_| evomcts_records::runfs::check_still_in_place(&file, &games_file))
            .map_err(|e| io_error(&games_file, e))?;
        // The rows are written: the step's records are no longer needed.
        if let Some(runner) = finished_steps.take() {
            runner.clear()?;
        }
        next = end;
        if opts.progress {
            let elapsed = started.elapsed().as_secs_f64();
            let rate = (next - done) as f64 * 2.0 / elapsed.max(1e-9);
            let eta = (tasks.len() - next) as f64 * 2.0 / rate.max(1e-9);
            evomcts_records::note!(
                "{}/{} games, {}, {} in, ETA {}",
                next * 2,
                tasks.len() * 2,
                evomcts_records::progress::rate(rate, "games"),
                evomcts_records::progress::duration(elapsed),
                evomcts_records::progress::duration(eta)
            );
        }
    }
    Ok(rows)
}

/// Results of one pairing over its sequences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingSummary {
    pub label: String,
    pub sequences: usize,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// (wins + draws/2) / games, with its Wilson 95% interval.
    pub win_rate: f64,
    pub win_low: f64,
    pub win_high: f64,
    /// Mean over sequences of the candidate's score minus the other's (mean of the two
    /// seatings), with mean ∓ 1.96·se over sequences.
    pub diff_mean: f64,
    pub diff_low: f64,
    pub diff_high: f64,
    /// Wilcoxon signed-rank test of the per-sequence differences.
    pub wilcoxon_n: usize,
    pub wilcoxon_p: f64,
    pub effect_size: f64,
}

/// The games of pairing `p`'s complete sequences (both seatings played), in sequence order.
pub fn complete_sequences(rows: &[GameRow], p: usize) -> Vec<Vec<&GameRow>> {
    let mut by_sequence: std::collections::BTreeMap<usize, Vec<&GameRow>> = Default::default();
    for r in rows.iter().filter(|r| r.pairing == p) {
        by_sequence.entry(r.sequence).or_default().push(r);
    }
    by_sequence.into_values().filter(|g| g.len() == 2).collect()
}

/// The summary of pairing `p` from its complete sequences (both seatings played).
pub fn summarise(label: &str, rows: &[GameRow], p: usize) -> PairingSummary {
    let complete = complete_sequences(rows, p);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut diffs = Vec::with_capacity(complete.len());
    for games in &complete {
        let mut d = 0.0;
        for g in games.iter() {
            d += g.candidate_score - g.other_score;
            if g.candidate_score > g.other_score {
                wins += 1;
            } else if g.candidate_score == g.other_score {
                draws += 1;
            } else {
                losses += 1;
            }
        }
        diffs.push(d / 2.0);
    }
    let games = wins + draws + losses;
    let points = wins as f64 + draws as f64 / 2.0;
    let (win_low, win_high) = wilson_interval(points, games as f64);
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n.max(1.0);
    let var = if diffs.len() > 1 {
        diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n.max(1.0)).sqrt();
    let w = wilcoxon_signed_rank(&diffs);
    PairingSummary {
        label: label.to_string(),
        sequences: diffs.len(),
        games,
        wins,
        draws,
        losses,
        win_rate: if games > 0 {
            points / games as f64
        } else {
            0.0
        },
        win_low,
        win_high,
        diff_mean: mean,
        diff_low: mean - half,
        diff_high: mean + half,
        wilcoxon_n: w.n,
        wilcoxon_p: w.p_value,
        effect_size: w.effect_size,
    }
}

/// A p-value for tables: below 10⁻⁶ the normal approximation behind it is no longer
/// accurate (and may round to 0), so it is shown as a bound.
pub fn p_text(p: f64) -> String {
    if p < 1e-6 {
        "< 1e-6".into()
    } else {
        format!("{p:.2e}")
    }
}

pub fn summary_table(rows: &[PairingSummary]) -> String {
    let mut out = String::from(
        "| pairing | sequences | games | W-D-L | win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p (n) |\n|---|---|---|---|---|---|---|\n",
    );
    for s in rows {
        // Nothing played yet (`--stop-after 0`, a fresh sweep point): no rate, interval or
        // test, rather than the formulas' values over nothing.
        if s.games == 0 {
            out.push_str(&format!(
                "| {} | {} | 0 | 0-0-0 | no games yet: no result | – | – |\n",
                s.label, s.sequences
            ));
            continue;
        }
        out.push_str(&format!(
            "| {} | {} | {} | {}-{}-{} | {:.3} [{:.3}, {:.3}] | {:+.2} [{:+.2}, {:+.2}] | {} ({}) |\n",
            s.label,
            s.sequences,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.win_rate,
            s.win_low,
            s.win_high,
            s.diff_mean,
            s.diff_low,
            s.diff_high,
            p_text(s.wilcoxon_p),
            s.wilcoxon_n
        ));
    }
    out
}

/// Runs (or resumes) a validation; writes `summary.md` and returns the summary.
pub fn run_validation(
    spec: &ValidateSpec,
    opts: &PlayOptions,
) -> Result<PairingSummary, ValidateError> {
    let pairing = Pairing {
        label: "candidate vs baseline".into(),
        candidate: spec.candidate.clone(),
        other: spec.baseline.clone(),
    };
    let rule = spec.sequential.map(sprt::stop_rule);
    let rows = play_pairings_until(
        std::slice::from_ref(&pairing),
        &spec.tile_seeds(),
        spec.game,
        spec.rules,
        &spec.to_ron(),
        opts,
        rule.as_ref().map(|r| r as StopRule),
    )?;
    let summary = summarise(&pairing.label, &rows, 0);
    let sequential = sprt::write_outcome(spec, &rows, &opts.out_dir)?;
    // The spec holds the formula itself (files are read when the spec is), so the summary
    // says what was validated even if a champion file changes later.
    let formula = match &spec.candidate {
        ControllerSpec::Mcts(MctsSettings {
            selection: Selection::Formula(text),
            ..
        }) => format!("\n\nFormula: `{text}`"),
        _ => String::new(),
    };
    let (sequences, seeds) = sequence_words(spec.game);
    write_summary(
        &opts.out_dir,
        &format!("Validation `{}`", spec.name),
        &spec.description,
        &format!(
            "Candidate: `{}`{formula}\n\nBaseline: `{}`\n\n{}: {} from the validation namespace ({seeds} with the top bit set; evolution and the UCT sweep never play them), master seed {}, both seatings.",
            serde_json::to_string(&spec.candidate).unwrap_or_default(),
            serde_json::to_string(&spec.baseline).unwrap_or_default(),
            evomcts_records::escape::capitalised(&sequences),
            spec.sequences,
            spec.seed,
        ),
        &format!(
            "{}{sequential}",
            summary_table(std::slice::from_ref(&summary))
        ),
        "Win rate: Wilson 95% interval over games (draws count one half). Score difference: per sequence the mean of its two seatings, mean ± 1.96·se over sequences; Wilcoxon signed-rank test on the same per-sequence differences.",
    )?;
    Ok(summary)
}

/// What a game's sequences of chance events and their seeds are called in summaries.
fn sequence_words(game: GameChoice) -> (String, &'static str) {
    let described = game.describe();
    (described.sequences, described.seeds_name)
}

/// A folder's `summary.md`: the title, the description, `body`, the table and `tail`, each
/// its own paragraph.
fn write_summary(
    dir: &Path,
    title: &str,
    description: &str,
    body: &str,
    table: &str,
    tail: &str,
) -> Result<(), ValidateError> {
    let text = format!("# {title}\n\n{description}\n\n{body}\n\n{table}\n{tail}\n");
    let path = dir.join("summary.md");
    write_file(&path, &text)
}

mod bandit_baselines;
pub mod equivalence;
pub mod sprt;
pub mod sweep;

pub use bandit_baselines::*;
