//! What a tuning run leaves beside `tune.csv`: `trajectory.csv` (the optimiser's iterate
//! before every step and after the last, with the step's gains and evaluations; rewritten
//! whenever the run stops), and once every step is played `summary.md` (the method, the
//! values, the recommendation's candidates and the re-estimate) and `tuned.ron` (the tuned
//! controller as a spec's controller, ready to paste). Each is a pure function of the spec and
//! the games, so a resumed run writes the same bytes.

use super::recommend::Candidate;
use super::reestimate::{Reestimate, REESTIMATE_FIRST};
use super::run::{Trajectory, TuneResult};
use super::{write_file, TuneError, TuneSpec};
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::escape::number;
use evomcts_records::runfs::FileError;
use evomcts_search::ControllerSpec;
use evomcts_validation::{p_text, summary_table};
use std::path::Path;

/// The optimiser's path.
pub const TRAJECTORY_CSV: &str = "trajectory.csv";
/// The tuned controller.
pub const TUNED_RON: &str = "tuned.ron";

/// The header of `trajectory.csv` for parameters named `names`.
pub fn trajectory_header(names: &[&str]) -> String {
    format!(
        "step,{},a_k,c_k,f_plus,f_minus",
        super::rows::columns(names)
    )
}

/// `trajectory.csv`: `step,<names in lowercase…>,a_k,c_k,f_plus,f_minus`, values in natural units; the
/// last row is the iterate after the last step written, with the other fields empty.
pub(super) fn write_trajectory(
    dir: &Path,
    spec: &TuneSpec,
    path: &Trajectory,
) -> Result<(), TuneError> {
    let names: Vec<&str> = spec.parameters.iter().map(|p| p.name.as_str()).collect();
    let gains = spec.gains();
    let mut csv = format!("{}\n", trajectory_header(&names));
    let values = |x: &[f64]| -> String {
        spec.parameters
            .iter()
            .zip(x)
            .map(|(p, &x)| p.natural(x).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    for (k, (x, (plus, minus))) in path.iterates.iter().zip(&path.evaluations).enumerate() {
        csv.push_str(&format!(
            "{k},{},{},{},{plus},{minus}\n",
            values(x),
            gains.a_k(k),
            gains.c_k(k)
        ));
    }
    csv.push_str(&format!(
        "{},{},,,,\n",
        path.iterates.len(),
        values(&path.spsa.x)
    ));
    write_file(&dir.join(TRAJECTORY_CSV), &csv)
}

/// `summary.md` and `tuned.ron`.
pub(super) fn write_outputs(
    dir: &Path,
    spec: &TuneSpec,
    result: &TuneResult,
) -> Result<(), TuneError> {
    let tuned = tuned_ron(spec, result);
    write_file(&dir.join(TUNED_RON), &tuned)?;
    write_file(&dir.join("summary.md"), &summary(spec, result, &tuned))
}

fn controller_ron(spec: &TuneSpec, values: &[f64]) -> String {
    evomcts_records::runfs::ron_options()
        .to_string(&ControllerSpec::Mcts(spec.settings_at(values)))
        .expect("a controller serialises")
}

fn values_text(spec: &TuneSpec, values: &[f64]) -> String {
    spec.parameters
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{} = {}", p.name, number(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn tuned_ron(spec: &TuneSpec, result: &TuneResult) -> String {
    format!(
        "// Tuned by `evomcts tune` (spec `{}`): {}.\n// Re-estimated against the opponent on {} fresh sweep sequences: see summary.md.\n{}\n",
        spec.name,
        values_text(spec, &result.tuned),
        result.reestimate.sequences,
        controller_ron(spec, &result.tuned)
    )
}

fn method(spec: &TuneSpec) -> String {
    let g = spec.gains();
    let steps = spec.steps();
    let opponent = match &spec.opponent {
        Some(o) => format!("`{}`", serde_json::to_string(o).unwrap_or_default()),
        None => "the controller at its starting values".into(),
    };
    format!(
        "Controller: `{}`\n\nOpponent: {opponent}\n\nSPSA (Spall 1992, as fishtest tunes engine constants): {steps} steps, each 2 evaluations (the two perturbed points) × {} sequence(s) × 2 seatings = {} games on sweep sequences (evolution's namespace, never validation's), master seed {}, both points on the same sequences. Gains a_k = a/(A + k + 1)^α, c_k = c/(k + 1)^γ with a = {}, c = {}, A = {}, α = {}, γ = {}, on each parameter scaled to [0, 1] by its range.",
        serde_json::to_string(&spec.controller).unwrap_or_default(),
        spec.seeds_per_step,
        steps * spec.games_per_step(),
        spec.seed,
        number(g.a),
        number(g.c),
        number(g.big_a),
        number(g.alpha),
        number(g.gamma),
    )
}

fn values_table(spec: &TuneSpec, result: &TuneResult) -> String {
    let mut t = String::from(
        "| parameter | range | start | final iterate | recommended |\n|---|---|---|---|---|\n",
    );
    for (i, p) in spec.parameters.iter().enumerate() {
        t.push_str(&format!(
            "| {} | [{}, {}]{} | {} | {} | {} |\n",
            p.name,
            number(p.low),
            number(p.high),
            if p.log { " log" } else { "" },
            number(result.start[i]),
            number(result.last[i]),
            number(result.tuned[i])
        ));
    }
    t
}

fn candidates_table(spec: &TuneSpec, candidates: &[Candidate], chosen: usize) -> String {
    let mut t = String::from(
        "| block (steps) | mean evaluation [95% CI] | mean iterate | |\n|---|---|---|---|\n",
    );
    for (i, c) in candidates.iter().enumerate() {
        let values: Vec<f64> = spec
            .parameters
            .iter()
            .zip(&c.x)
            .map(|(p, &x)| p.natural(x))
            .collect();
        t.push_str(&format!(
            "| {}–{} | {:+.2} [{:+.2}, {:+.2}] | {} | {} |\n",
            c.first,
            c.last - 1,
            c.mean,
            c.low,
            c.high,
            values_text(spec, &values),
            if i == chosen { "recommended" } else { "" }
        ));
    }
    t
}

fn reestimate_text(spec: &TuneSpec, r: &Reestimate) -> String {
    let against = if spec.opponent.is_some() {
        "tuned − start, per sequence"
    } else {
        "tuned − start (the opponent), per sequence"
    };
    format!(
        "Re-estimate on {} fresh sweep sequences (indices from {REESTIMATE_FIRST} of the sweep's derivation, never played while tuning), both seatings (games in `reestimate/games.csv`):\n\n{}\nPaired score difference ({against}): **{:+.2} [{:+.2}, {:+.2}]**, Wilcoxon signed-rank p = {} (n = {}).\n\nWin rate: Wilson 95% interval over games (draws count one half). Score difference: per sequence the mean of its two seatings, mean ± 1.96·se over sequences.",
        r.sequences,
        summary_table(&r.summaries),
        r.paired_mean,
        r.paired_low,
        r.paired_high,
        p_text(r.paired_p),
        r.paired_n
    )
}

fn summary(spec: &TuneSpec, result: &TuneResult, tuned: &str) -> String {
    format!(
        "# Tuning `{}`\n\n{}\n\n{}\n\n{}\nRecommendation: the last half of the steps in {} blocks; each block's candidate is its mean iterate, valued by the mean of its steps' evaluations (mean score difference against the opponent, the step's two points averaged) with a 95% interval; the block with the highest lower bound is recommended (a pessimistic choice, not the luckiest).\n\n{}\n{}\n\nThe tuned controller (`tuned.ron`):\n\n```ron\n{}```\n",
        spec.name,
        spec.description,
        method(spec),
        values_table(spec, result),
        result.candidates.len(),
        candidates_table(spec, &result.candidates, result.chosen),
        reestimate_text(spec, &result.reestimate),
        tuned
    )
}

/// One row of `trajectory.csv`: the step and the iterate's values, natural units.
pub type TrajectoryPoint = (usize, Vec<f64>);

/// Reads `trajectory.csv` of the run in `dir` for the parameters of `spec` (the figures'
/// data); an unreadable row is refused with its line.
pub fn read_trajectory(dir: &Path, spec: &TuneSpec) -> Result<Vec<TrajectoryPoint>, TuneError> {
    let path = dir.join(TRAJECTORY_CSV);
    let names: Vec<&str> = spec.parameters.iter().map(|p| p.name.as_str()).collect();
    let table = Table::read(
        &path,
        &trajectory_header(&names),
        "a tuning run's trajectory",
    )
    .map_err(FileError::from)?
    .ok_or_else(|| super::io_error(&path, "no such file: the run has written no trajectory yet"))?;
    let width = names.len();
    table
        .rows()
        .map(|row| {
            let corrupt = |e: CsvError| TuneError::from(FileError::from(e));
            let step = row
                .parse::<usize>(0, "a step (a whole number)")
                .map_err(corrupt)?;
            let values = (1..=width)
                .map(|k| row.number(k).map_err(corrupt))
                .collect::<Result<Vec<f64>, _>>()?;
            Ok((step, values))
        })
        .collect()
}

/// Whether `dir` holds a tuning run (its `tune.csv`).
pub fn is_tune_run(dir: &Path) -> bool {
    evomcts_records::runfs::folder_kind(dir)
        .is_some_and(|f| f.kind == Some(evomcts_records::runfs::RunKind::Tuning))
}
