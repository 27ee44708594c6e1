//! What a study writes beside its phases' folders: `study.ron` (its spec), `phases.ron` (each
//! finished phase with the games it played, and the evolution's champion), and, once a budget's
//! three phases are finished, `study.csv` (one row per budget) and `study.md` (the same as a
//! table, with the method and the folders).

use super::{write_file, StudyError, StudySpec};
use evomcts_arena::budgets::BudgetProfile;
use evomcts_formula::Formula;
use evomcts_tune::TuneResult;
use evomcts_validation::{p_text, PairingSummary};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The study's spec in its folder.
pub const STUDY_RON: &str = evomcts_records::runfs::kind::STUDY_RON;
/// The finished phases.
pub const PHASES_RON: &str = "phases.ron";
pub const STUDY_CSV: &str = "study.csv";
pub const STUDY_MD: &str = "study.md";

/// The header of `study.csv`.
pub const STUDY_CSV_HEADER: &str = "game,budget,c_e_start,c_e_tuned,c_e,c_e_diff,c_e_diff_low,c_e_diff_high,c_e_diff_p,champion,champion_simplified,win_rate,win_low,win_high,diff_mean,diff_low,diff_high,wilcoxon_p,sprt_decision,sprt_llr,tune_games,evolve_games,validate_games";

/// How often the champion's tree policy decided anything, one row per finished budget, when the
/// spec names `consulted`.
pub const CONSULTED_CSV: &str = "consulted.csv";
pub const CONSULTED_CSV_HEADER: &str = "game,budget,games,decisions,forced,branching,consulted,consulted_share,consulted_low,consulted_high,spare_sims,policy_choices_per_sim,same_move,same_move_share,same_move_low,same_move_high";

/// Below this share of decisions whose root asked the policy, a row's page says the formula
/// decided almost nothing there.
pub const RARELY_CONSULTED: f64 = 0.1;

/// A phase of a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Tune,
    Evolve,
    Validate,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Tune, Phase::Evolve, Phase::Validate];

    /// Its folder in `sims-B/`, and its name in progress lines.
    pub fn folder(self) -> &'static str {
        match self {
            Phase::Tune => "tune",
            Phase::Evolve => "evolve",
            Phase::Validate => "validate",
        }
    }
}

/// A finished phase, as `phases.ron` records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseDone {
    pub budget: u32,
    pub phase: Phase,
    /// Games the phase played.
    pub games: u64,
    /// The evolution's champion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<Formula>,
}

/// One budget's results: a row of `study.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetRow {
    pub game: String,
    pub budget: u32,
    pub c_e_start: f64,
    /// SPSA's recommendation.
    pub c_e_tuned: f64,
    /// The constant evolution and validation played (`run::played_c_e`).
    pub c_e: f64,
    /// The tuning's re-estimate: tuned − start per sequence, mean, 95% interval, Wilcoxon p.
    pub c_e_diff: (f64, f64, f64, f64),
    pub champion: Formula,
    pub simplified: Formula,
    pub validation: PairingSummary,
    /// The sequential test's decision (`h0`, `h1`, `undecided`) and last LLR, when it ran.
    pub sprt: Option<(String, f64)>,
    /// Games of tuning (with its re-estimate), evolution (with its re-estimate), validation.
    pub games: [u64; 3],
    /// How often the champion's policy decides anything at this budget (`consulted`).
    pub consulted: Option<BudgetProfile>,
}

impl BudgetRow {
    pub fn new(
        spec: &StudySpec,
        budget: u32,
        tuned: &TuneResult,
        games: [u64; 3],
        champion: &Formula,
        validation: PairingSummary,
        sprt: Option<(String, f64)>,
    ) -> BudgetRow {
        let r = &tuned.reestimate;
        BudgetRow {
            game: spec.game.label(),
            budget,
            c_e_start: tuned.start[0],
            c_e_tuned: tuned.tuned[0],
            c_e: super::run::played_c_e(tuned),
            c_e_diff: (r.paired_mean, r.paired_low, r.paired_high, r.paired_p),
            champion: champion.clone(),
            simplified: champion.simplify(),
            validation,
            sprt,
            games,
            consulted: None,
        }
    }

    /// The row with how often its champion's policy decided (`consulted`).
    pub fn with_consulted(mut self, consulted: Option<BudgetProfile>) -> BudgetRow {
        self.consulted = consulted;
        self
    }

    /// The row of `consulted.csv`, when measured.
    fn consulted_csv(&self) -> Option<String> {
        let p = self.consulted.as_ref()?;
        let r = p.rows.first()?;
        let cells = [
            quoted(&self.game),
            self.budget.to_string(),
            p.games.to_string(),
            p.decisions.to_string(),
            p.forced.to_string(),
            p.branching.to_string(),
            r.consulted.to_string(),
            r.consulted_share.to_string(),
            r.consulted_low.to_string(),
            r.consulted_high.to_string(),
            r.spare_sims.to_string(),
            r.policy_share.to_string(),
        ];
        let same = r.agreement.map_or(
            [String::new(), String::new(), String::new(), String::new()],
            |a| {
                [
                    a.same.to_string(),
                    a.share.to_string(),
                    a.low.to_string(),
                    a.high.to_string(),
                ]
            },
        );
        Some(cells.into_iter().chain(same).collect::<Vec<_>>().join(","))
    }

    /// The row of `study.md`'s table of how often the formula is asked, when measured.
    fn consulted_markdown(&self) -> Option<String> {
        let p = self.consulted.as_ref()?;
        let r = p.rows.first()?;
        let verdict = if r.consulted_share < RARELY_CONSULTED {
            "rarely: the search is mostly flat Monte Carlo, whatever the formula, so a tie here measures next to nothing"
        } else if r.consulted_share < 0.5 {
            "at some decisions"
        } else {
            "at most decisions"
        };
        let same = r.agreement.map_or("–".to_string(), |a| {
            format!("{:.3} [{:.3}, {:.3}]", a.share, a.low, a.high)
        });
        Some(format!(
            "| {} | {} of {} games | {:.1} | {:.3} [{:.3}, {:.3}] | {:.1} | {:.3} | {same} | {verdict} |\n",
            self.budget,
            p.decisions,
            p.games,
            p.branching,
            r.consulted_share,
            r.consulted_low,
            r.consulted_high,
            r.spare_sims,
            r.policy_share,
        ))
    }

    fn csv(&self) -> String {
        let v = &self.validation;
        // An LLR that is not finite (every game one way: −∞ under H0, +∞ under H1, the
        // decision saying which) is an empty cell, as in `sequential.csv`: every CSV reader
        // takes the column for numbers.
        let (decision, llr) = self
            .sprt
            .as_ref()
            .map_or((String::new(), String::new()), |(d, l)| {
                (d.clone(), evomcts_records::escape::csv_number(*l))
            });
        let cells = [
            quoted(&self.game),
            self.budget.to_string(),
            self.c_e_start.to_string(),
            self.c_e_tuned.to_string(),
            self.c_e.to_string(),
            self.c_e_diff.0.to_string(),
            self.c_e_diff.1.to_string(),
            self.c_e_diff.2.to_string(),
            self.c_e_diff.3.to_string(),
            quoted(&self.champion.to_string()),
            quoted(&self.simplified.to_string()),
            v.win_rate.to_string(),
            v.win_low.to_string(),
            v.win_high.to_string(),
            v.diff_mean.to_string(),
            v.diff_low.to_string(),
            v.diff_high.to_string(),
            v.wilcoxon_p.to_string(),
            decision,
            llr,
            self.games[0].to_string(),
            self.games[1].to_string(),
            self.games[2].to_string(),
        ];
        cells.join(",")
    }

    fn markdown(&self) -> String {
        let v = &self.validation;
        let sprt = self
            .sprt
            .as_ref()
            .map_or("not run".to_string(), |(d, llr)| {
                format!("{d} (LLR {llr:+.3})")
            });
        format!(
            "| {} | {} → {} ({:+.3} [{:+.3}, {:+.3}], p = {}); played {} | `{}` | {}-{}-{} | {:.3} [{:.3}, {:.3}] | {:+.3} [{:+.3}, {:+.3}] | {} | {sprt} | {} / {} / {} |\n",
            self.budget,
            evomcts_records::escape::number(self.c_e_start),
            evomcts_records::escape::number(self.c_e),
            self.c_e_diff.0,
            self.c_e_diff.1,
            self.c_e_diff.2,
            p_text(self.c_e_diff.3),
            evomcts_records::escape::number(self.c_e),
            self.simplified,
            v.wins,
            v.draws,
            v.losses,
            v.win_rate,
            v.win_low,
            v.win_high,
            v.diff_mean,
            v.diff_low,
            v.diff_high,
            p_text(v.wilcoxon_p),
            self.games[0],
            self.games[1],
            self.games[2],
        )
    }
}

/// A CSV cell holding text: quoted, quotes doubled.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// Writes `study.csv` and `study.md` for the budgets finished so far.
pub fn write_outputs(dir: &Path, spec: &StudySpec, rows: &[BudgetRow]) -> Result<(), StudyError> {
    let mut csv = format!("{STUDY_CSV_HEADER}\n");
    rows.iter().for_each(|r| {
        csv.push_str(&r.csv());
        csv.push('\n');
    });
    write_file(&dir.join(STUDY_CSV), &csv)?;
    if spec.consulted.is_some() {
        let mut consulted = format!("{CONSULTED_CSV_HEADER}\n");
        rows.iter()
            .filter_map(BudgetRow::consulted_csv)
            .for_each(|r| {
                consulted.push_str(&r);
                consulted.push('\n');
            });
        write_file(&dir.join(CONSULTED_CSV), &consulted)?;
    }
    write_file(&dir.join(STUDY_MD), &markdown(spec, rows))
}

fn markdown(spec: &StudySpec, rows: &[BudgetRow]) -> String {
    let mut text = format!("# Study `{}`: {}\n\n", spec.name, spec.game.label());
    if !spec.description.is_empty() {
        text.push_str(&format!("{}\n\n", spec.description));
    }
    text.push_str(&format!(
        "{} of {} budgets finished. Master seed {}.\n\n",
        rows.len(),
        spec.budgets.len(),
        spec.seed
    ));
    text.push_str("| simulations | C_E: start → tuned (re-estimate: tuned − start [95% CI], Wilcoxon p); played | champion (simplified) | W-D-L | win rate [95% Wilson] | score difference [95% CI] | Wilcoxon p | SPRT | games: tune / evolve / validate |\n|---|---|---|---|---|---|---|---|---|\n");
    rows.iter().for_each(|r| text.push_str(&r.markdown()));
    let test = spec.sprt();
    let (h0, h1) = test.hypotheses.describe();
    text.push_str(&format!(
        "\nAt each budget: UCT's C_E tuned by SPSA ({} games on sweep sequences, then {} fresh sweep sequences × 2 seatings of re-estimate against the starting constant; folder `sims-B/tune`; the constant played from then on is the tuned one unless the re-estimate puts it below the start, then the start); evolution from UCT against UCT at that constant ({} generations, μ = {}, λ = {}, {} sequences a candidate{}, the hall of fame's best {} re-estimated on fresh sequences; `sims-B/evolve`); the re-estimate's champion against UCT at that constant on validation sequences, which neither tuning nor evolution plays, both seatings, at most {} games{} (`sims-B/validate`).\n\nWin rate: Wilson 95% interval over games (draws count one half). Score difference: per sequence the mean of its two seatings, mean ± 1.96·se over sequences; Wilcoxon signed-rank test on the same differences. Once the sequential test stops early, the fixed-N statistics are estimates after a sequential stop (biased away from zero).\n",
        spec.tune.games,
        spec.tune.reestimate_sequences,
        spec.evolve.generations,
        spec.evolve.mu,
        spec.evolve.lambda,
        spec.evolve.samples,
        if spec.evolve.racing { ", raced" } else { "" },
        spec.evolve.reestimate_candidates,
        spec.validate.games_cap,
        if spec.validate.sequential {
            format!(
                ", stopped by the SPRT ({}: H0 {h0}, H1 {h1}, α = {}, β = {})",
                test.hypotheses.test_name(),
                test.alpha,
                test.beta
            )
        } else {
            String::new()
        },
    ));
    if spec.consulted.is_some() {
        text.push_str(&consulted_markdown(rows));
    }
    text
}

/// `study.md`'s section on how often the champion's policy decides anything.
fn consulted_markdown(rows: &[BudgetRow]) -> String {
    let mut text = String::from("\n## Where the formula is asked\n\nUnder the default `unvisited: TriedFirst`, a node asks its tree policy only once each of its moves was tried, so at a decision with more legal moves than simulations the formula never decides which move is searched. The champion's controller at each budget and played constant searched every decision of seeded random games (forced moves left out; `consulted.csv`; docs/study.md, \"Budgets where the formula is asked\"): the share of decisions whose root asked the policy (95% Wilson interval over decisions), the mean simulations whose root child the policy picked (spare simulations), the policy's choices per simulation anywhere in the tree, and the share of decisions at which the champion and UCT at the played constant, searching with the same seed, chose the same move (where they always do, the validation's games are UCT against itself).\n\n| simulations | decisions | mean legal moves | root asked the policy [95% Wilson] | spare simulations | policy choices per simulation | same move as UCT [95% Wilson] | the formula decided |\n|---|---|---|---|---|---|---|---|\n");
    rows.iter()
        .filter_map(BudgetRow::consulted_markdown)
        .for_each(|r| text.push_str(&r));
    text
}
