//! A portfolio as its RON spec states it: a master seed, the budgets, the study sections every
//! game shares (`tune`, `evolve`, `validate`, as in a study spec), the games (each with a
//! label and, where it needs them, its own sections: fewer games for a costly one), and the
//! generalisation matrix's games per cell. From it each game's study spec is built in code
//! ([`PortfolioSpec::study_spec`]), so each game's folder is an ordinary study folder, and
//! each cell of the matrix is an ordinary validation ([`PortfolioSpec::cell_spec`]).

use evomcts_arena::GameChoice;
use evomcts_formula::Formula;
use evomcts_games::carcassonne::Rules;
use evomcts_records::runfs::{derive_seed, SpecFile};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use evomcts_study::spec::{ConsultedPhase, EvolvePhase, TunePhase, ValidatePhase};
use evomcts_study::StudySpec;
use evomcts_validation::ValidateSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most games one portfolio lists.
pub const MAX_GAMES: usize = 64;

/// A portfolio: `evomcts portfolio SPEC`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortfolioSpec {
    /// Names the output folder: `runs/portfolio/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed: each game's study seed derives from it and the game's label.
    pub seed: u64,
    /// Simulations per decision, the same for every game (the matrix pairs games at a
    /// budget); left out: the games' own study budgets, which must then agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budgets: Option<Vec<u32>>,
    /// The sections every game's study takes unless the game names its own.
    #[serde(default)]
    pub tune: TunePhase,
    #[serde(default)]
    pub evolve: EvolvePhase,
    #[serde(default)]
    pub validate: ValidatePhase,
    pub games: Vec<PortfolioGame>,
    #[serde(default)]
    pub matrix: MatrixSpec,
    /// One general formula: evolved on a mix of some games, validated on the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general: Option<GeneralSpec>,
    /// Every game's study measures how often its champion's tree policy decides anything at
    /// each budget (a study's `consulted`); left out of the stored spec when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consulted: Option<ConsultedPhase>,
}

/// One general formula: an evolution whose fitness mixes the `train` games (each at its
/// budget and played constant, against its UCT there), its champion then played on every
/// other game of the portfolio, which it never saw, against that game's tuned UCT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralSpec {
    /// The labels of the games it evolves on; every other game is held out.
    pub train: Vec<String>,
    /// The evolution (as a study's `evolve` section; its samples are spread over the games).
    #[serde(default)]
    pub evolve: EvolvePhase,
    /// Games on each held-out game (both seatings of `games / 2` of its validation sequences,
    /// fixed-N).
    pub games: usize,
}

/// One game of a portfolio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortfolioGame {
    /// The game's name in the portfolio's tables and folders: a plain name, best of letters,
    /// digits, `-` and `_`; never `;` nor `evolve` ([`check_label`]).
    pub label: String,
    pub game: GameChoice,
    #[serde(default, skip_serializing_if = "is_default_rules")]
    pub rules: Rules,
    /// The game's own sections, replacing the portfolio's whole (a costly game plays fewer
    /// games; say so where the results are reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<TunePhase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evolve: Option<EvolvePhase>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validate: Option<ValidatePhase>,
}

fn is_default_rules(rules: &Rules) -> bool {
    *rules == Rules::default()
}

/// The generalisation matrix: each game's champion played on every other game of the
/// portfolio at that game's budget and played constant, against its tuned UCT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatrixSpec {
    /// Games of each cell (both seatings of `games / 2` validation sequences of the target
    /// game: the first sequences of its own validation); 0 plays no matrix.
    pub games: usize,
}

impl Default for MatrixSpec {
    fn default() -> Self {
        MatrixSpec { games: 200 }
    }
}

/// That `label` can be a game's label: a plain name (it names the game's folders and files),
/// without `;` (`shared.csv`'s `labels` and `general.csv`'s `trained_on` list labels separated
/// by `;`, so a label holding one would read back as two), and none of the names the layout
/// puts beside the labels ([`super::general::BUDGET_FOLDER_NAMES`]: `general/sims-B/evolve` is
/// the general formula's evolution beside each held-out game's `general/sims-B/LABEL`), in any
/// case, as a file system that ignores case sees them.
pub fn check_label(label: &str) -> Result<(), String> {
    evomcts_records::runfs::check_plain_name("a game's label", label)?;
    if label.contains(LIST_SEPARATOR) {
        return Err(format!(
            "must hold no `{LIST_SEPARATOR}`, which separates the labels listed in shared.csv's `labels` and general.csv's `trained_on`, got {:?}",
            evomcts_records::escape::abbreviated(label, 80)
        ));
    }
    if let Some(name) = super::general::BUDGET_FOLDER_NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(label))
    {
        return Err(format!(
            "`{label}` is reserved: general/sims-B/{name} is the general formula's evolution, beside each held-out game's general/sims-B/LABEL"
        ));
    }
    Ok(())
}

/// What separates the labels of a list in one CSV field (`shared.csv`'s `labels`,
/// `general.csv`'s `trained_on`).
pub const LIST_SEPARATOR: char = ';';

/// The seed stream of the games' studies, below the portfolio's master seed.
const STUDY: u64 = 1;

impl SpecFile for PortfolioSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {}

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        let resolve = |phase: &mut EvolvePhase, field: String| {
            phase.grammar = evomcts_records::runfs::resolve_grammar(&phase.grammar, base)
                .map_err(|e| (field, e))?;
            Ok::<(), (String, String)>(())
        };
        resolve(&mut self.evolve, "evolve.grammar".into())?;
        if let Some(g) = self.general.as_mut() {
            resolve(&mut g.evolve, "general.evolve.grammar".into())?;
        }
        for (i, g) in self.games.iter_mut().enumerate() {
            if let Some(e) = g.evolve.as_mut() {
                resolve(e, format!("games[{i}].evolve.grammar"))?;
            }
        }
        Ok(())
    }
}

impl PortfolioSpec {
    /// The budgets of every game: the spec's, else the games' own study budgets.
    pub fn budgets(&self) -> Vec<u32> {
        match &self.budgets {
            Some(b) => b.clone(),
            None => self
                .games
                .first()
                .map_or_else(Vec::new, |g| g.game.describe().study_budgets.to_vec()),
        }
    }

    /// The game labelled `label`.
    pub fn game(&self, label: &str) -> Option<&PortfolioGame> {
        self.games.iter().find(|g| g.label == label)
    }

    /// The study of game `g`: an ordinary study spec, its seed derived from the portfolio's
    /// and the label (so adding a game changes no other game's study).
    pub fn study_spec(&self, g: &PortfolioGame) -> StudySpec {
        StudySpec {
            name: g.label.clone(),
            description: format!("{} in portfolio `{}`", g.game.label(), self.name),
            seed: derive_seed(self.seed, &[STUDY, evomcts_formula::fnv1a(g.label.bytes())]),
            game: g.game,
            rules: g.rules,
            budgets: self.budgets(),
            runs: 1,
            controller: Default::default(),
            tune: g.tune.clone().unwrap_or_else(|| self.tune.clone()),
            evolve: g.evolve.clone().unwrap_or_else(|| self.evolve.clone()),
            validate: g.validate.clone().unwrap_or_else(|| self.validate.clone()),
            consulted: self.consulted.clone(),
        }
    }

    /// The matrix's cell: `formula` (the champion of another game) on `target` at `budget`,
    /// with the target's played constant `c_e`, against the target's UCT at `c_e`, on the
    /// first `matrix.games / 2` sequences of the target's own validation, fixed-N.
    pub fn cell_spec(
        &self,
        target: &PortfolioGame,
        source: &str,
        budget: u32,
        c_e: f64,
        formula: &Formula,
    ) -> ValidateSpec {
        let study = self.study_spec(target);
        let mut spec = study.validate_spec(budget, c_e, formula);
        spec.name = format!("{}-{}-on-{}-{budget}", self.name, source, target.label);
        spec.description = format!(
            "The champion of {source} in portfolio `{}` on {} at C_E = {}, {budget} simulations, against UCT",
            self.name,
            target.game.label(),
            evomcts_records::escape::number(c_e)
        );
        spec.sequences = self.matrix.games / 2;
        spec.sequential = None;
        if let ControllerSpec::Mcts(candidate) = &mut spec.candidate {
            candidate.selection = Selection::Formula(formula.to_string());
        }
        spec
    }

    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        evomcts_records::runfs::check_plain_name("the name", &self.name)
            .map_err(|m| ("name".to_string(), m))?;
        if self.games.is_empty() || self.games.len() > MAX_GAMES {
            return Err((
                "games".into(),
                format!(
                    "must list between 1 and {MAX_GAMES} games, got {}",
                    self.games.len()
                ),
            ));
        }
        for (i, g) in self.games.iter().enumerate() {
            check_label(&g.label).map_err(|m| (format!("games[{i}].label"), m))?;
            if self.games[..i].iter().any(|o| o.label == g.label) {
                return Err((
                    format!("games[{i}].label"),
                    format!("`{}` is listed twice", g.label),
                ));
            }
            if self.budgets.is_none() && g.game.describe().study_budgets.to_vec() != self.budgets()
            {
                return Err((
                    "budgets".into(),
                    format!(
                        "the games' own study budgets differ ({} plays {:?}, {} plays {:?}): name the portfolio's budgets",
                        self.games[0].label,
                        self.budgets(),
                        g.label,
                        g.game.describe().study_budgets
                    ),
                ));
            }
            let study = self.study_spec(g);
            study.validate().map_err(|(field, message)| {
                (
                    format!("games[{i}]"),
                    format!("`{}`: its study's `{field}` {message}", g.label),
                )
            })?;
        }
        if let Some(g) = &self.general {
            self.check_general(g)?;
        }
        let m = self.matrix.games;
        if m != 0 && (!m.is_multiple_of(2) || !(4..=1_000_000).contains(&m)) {
            return Err((
                "matrix.games".into(),
                format!("must be 0 (no matrix) or an even number from 4 to 1000000, got {m}"),
            ));
        }
        Ok(())
    }

    fn check_general(&self, g: &GeneralSpec) -> Result<(), (String, String)> {
        if g.train.is_empty() || g.train.len() >= self.games.len() {
            return Err((
                "general.train".into(),
                format!(
                    "must name between 1 and {} of the portfolio's games (one at least is held out), got {}",
                    self.games.len().saturating_sub(1),
                    g.train.len()
                ),
            ));
        }
        for (i, label) in g.train.iter().enumerate() {
            if self.game(label).is_none() {
                return Err((
                    format!("general.train[{i}]"),
                    format!("`{label}` is not a label of the portfolio's games"),
                ));
            }
            if g.train[..i].contains(label) {
                return Err((
                    format!("general.train[{i}]"),
                    format!("`{label}` is listed twice"),
                ));
            }
        }
        if !g.games.is_multiple_of(2) || !(4..=1_000_000).contains(&g.games) {
            return Err((
                "general.games".into(),
                format!("must be an even number from 4 to 1000000, got {}", g.games),
            ));
        }
        Ok(())
    }

    /// Reads a portfolio spec (grammar files it names are read relative to the spec's folder).
    pub fn from_file(
        path: impl AsRef<Path>,
    ) -> Result<PortfolioSpec, evomcts_records::runfs::SpecFileError> {
        <Self as SpecFile>::from_file(path)
    }

    pub fn from_ron(
        text: &str,
        file: &str,
    ) -> Result<PortfolioSpec, evomcts_records::runfs::SpecFileError> {
        <Self as SpecFile>::from_ron(text, file)
    }

    pub fn to_ron(&self) -> String {
        <Self as SpecFile>::to_ron(self)
    }
}
