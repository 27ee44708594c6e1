//! Which game a spec plays: the registry of games. [`GameChoice`] lists every game the tool
//! plays; [`GameChoice::describe`] is the one `match` that says what a run needs to know of a
//! game (a [`GameType`], as OpenSpiel's `GameType` describes a game: its label, how its seeds
//! are worded, its default threads, its record kind), and [`GameChoice::dispatch_with_rules`]
//! the one `match` that turns a choice into its start state, a generic `G: Game`. Everything
//! else the runs do with a game goes through these two, and no `match` over the games has a
//! `_` arm (`tests/it/registry.rs` scans the sources), so a new game is registered by a
//! variant and an arm in each, and one that forgets something does not compile
//! (docs/new-game.md).

use evomcts_games::carcassonne::GameState;
use evomcts_games::carcassonne::Rules;
use evomcts_games::connect_four::ConnectFourState;
use evomcts_games::external::ExternalGame;
use evomcts_games::pig::{PigRules, PigState};
use evomcts_games::{Game, Objective};
use evomcts_search::ControllerSpec;
use evomcts_twins::backgammon::{BackgammonRules, BackgammonState};
use evomcts_twins::breakthrough::{BreakthroughRules, BreakthroughState};
use evomcts_twins::checkers::{CheckersRules, CheckersState};
use evomcts_twins::clobber::{ClobberRules, ClobberState};
use evomcts_twins::dots_and_boxes::{DotsAndBoxesRules, DotsAndBoxesState};
use evomcts_twins::gomoku::{GomokuRules, GomokuState};
use evomcts_twins::hex::{HexRules, HexState};
use evomcts_twins::maedn::{MaednRules, MaednState};
use evomcts_twins::mancala::MancalaState;
use evomcts_twins::nim::{NimRules, NimState};
use evomcts_twins::othello::OthelloState;
use evomcts_twins::oware::{OwareRules, OwareState};
use evomcts_twins::pentago::PentagoState;
use evomcts_twins::tic_tac_toe::TicTacToeState;
use evomcts_twins::y::{YRules, YState};
use serde::{Deserialize, Serialize};

use super::open_spiel::OpenSpielGame;

/// The game of a league, an evolution run or a validation: `Carcassonne` (the default, whose
/// rules are the spec's `rules` field), `Pig(target: 100)`, `ConnectFour`, or an OpenSpiel
/// game, `OpenSpiel(name: "connect_four", params: {"rows": 6})`, played where a provider of
/// OpenSpiel's games is installed (`super::open_spiel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameChoice {
    #[default]
    Carcassonne,
    Pig(PigRules),
    ConnectFour,
    TicTacToe,
    Hex(HexRules),
    Y(YRules),
    Gomoku(GomokuRules),
    Pentago,
    Othello,
    Breakthrough(BreakthroughRules),
    Clobber(ClobberRules),
    Checkers(CheckersRules),
    Mancala,
    Oware(OwareRules),
    Nim(NimRules),
    DotsAndBoxes(DotsAndBoxesRules),
    Maedn(MaednRules),
    Backgammon(BackgammonRules),
    OpenSpiel(OpenSpielGame),
}

/// How a game's finished games are played and recorded (`arena::play_seated`), which also
/// chooses its pages in the report: by Carcassonne's referee into a `GameRecord` (the board
/// viewer), by Pig's loop into a `PigRecord` (the table of banked scores), or, for every
/// other game, into its history (`arena::history`: the steps with the game's `text`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Carcassonne,
    Pig(PigRules),
    History,
}

/// What a run needs to know of a game besides its start state, written once per game in
/// [`GameChoice::describe`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The game's name for tables and messages: `Carcassonne`, `Pig to 100`, `Connect Four`.
    pub label: String,
    /// What the seed of a game's chance events is called in tables and messages.
    pub seed_name: &'static str,
    /// What a validation's sequences of chance events are called in its summary.
    pub sequences: String,
    /// What their seeds are called, in the plural.
    pub seeds_name: &'static str,
    /// Worker threads a run of the game uses unless told (0: every core).
    pub default_threads: usize,
    /// How its games are recorded (and so its pages in the report).
    pub record: RecordKind,
    /// What the game is played for ([`Game::OBJECTIVE`] of the type `dispatch` plays).
    pub objective: Objective,
    /// Whether the game is OpenSpiel's, played through the provider a front end installs
    /// (its version recorded with its games, the provider's worker hooks installed in a pool).
    pub open_spiel: bool,
    /// The budgets (simulations per decision) a study or a portfolio plays the game at unless
    /// told: a small one, where a formula has the most room, and a larger one, sized so a
    /// study of the game takes minutes on two cores.
    pub study_budgets: [u32; 2],
}

/// What a run needs to know of a native game that is one of OpenSpiel's (issue 49): its label,
/// plain seeds, every core, its history as its record, and the budgets every game had.
fn native_game(label: String, objective: Objective) -> GameType {
    GameType {
        sequences: format!("seeds of {label}"),
        label,
        seed_name: "seed",
        seeds_name: "seeds",
        default_threads: 0,
        record: RecordKind::History,
        objective,
        open_spiel: false,
        study_budgets: [50, 200],
    }
}

/// Work on one game whatever the game: [`GameChoice::dispatch`] calls `run` with the game's
/// start state.
pub trait GameTask {
    type Output;
    fn run<G: Game>(self, start: G) -> Self::Output;
}

impl GameChoice {
    /// Whether this is the default, which specs leave out.
    pub fn is_carcassonne(&self) -> bool {
        *self == GameChoice::Carcassonne
    }

    /// Runs `task` on the game's start state (Carcassonne under `rules`): the one place that
    /// builds the games. An error says why the game's parameters give no start state.
    pub fn dispatch_with_rules<T: GameTask>(
        &self,
        rules: Rules,
        task: T,
    ) -> Result<T::Output, String> {
        Ok(match *self {
            GameChoice::Carcassonne => task.run(GameState::new(rules)),
            GameChoice::Pig(pig) => task.run(PigState::new(pig).map_err(|e| e.to_string())?),
            GameChoice::ConnectFour => task.run(ConnectFourState::new()),
            GameChoice::TicTacToe => task.run(TicTacToeState::new()),
            GameChoice::Hex(r) => task.run(HexState::new(r)),
            GameChoice::Y(r) => task.run(YState::new(r)),
            GameChoice::Gomoku(r) => task.run(GomokuState::new(r)),
            GameChoice::Pentago => task.run(PentagoState::new()),
            GameChoice::Othello => task.run(OthelloState::new()),
            GameChoice::Breakthrough(r) => {
                task.run(BreakthroughState::new(r).map_err(|e| e.to_string())?)
            }
            GameChoice::Clobber(r) => task.run(ClobberState::new(r).map_err(|e| e.to_string())?),
            GameChoice::Checkers(r) => task.run(CheckersState::new(r).map_err(|e| e.to_string())?),
            GameChoice::Mancala => task.run(MancalaState::new()),
            GameChoice::Oware(r) => task.run(OwareState::new(r)),
            GameChoice::Nim(r) => task.run(NimState::new(r)),
            GameChoice::DotsAndBoxes(r) => task.run(DotsAndBoxesState::new(r)),
            GameChoice::Maedn(r) => task.run(MaednState::new(r)),
            GameChoice::Backgammon(r) => {
                task.run(BackgammonState::new(r).map_err(|e| e.to_string())?)
            }
            GameChoice::OpenSpiel(game) => task.run(game.start()?),
        })
    }

    /// Runs `task` on the game's start state, Carcassonne under its default rules: what
    /// checks, bounds and report pages need, which play no Carcassonne game of a spec.
    pub fn dispatch<T: GameTask>(&self, task: T) -> Result<T::Output, String> {
        self.dispatch_with_rules(Rules::default(), task)
    }

    /// What a run needs to know of the game: the one place each game describes itself, every
    /// field written for every game (a test checks `objective` and `record` against what
    /// `dispatch` and `play_seated` do).
    pub fn describe(&self) -> GameType {
        match *self {
            GameChoice::Carcassonne => GameType {
                label: "Carcassonne".into(),
                seed_name: "tile seed",
                sequences: "tile sequences".into(),
                seeds_name: "tile seeds",
                default_threads: 0,
                record: RecordKind::Carcassonne,
                objective: GameState::OBJECTIVE,
                open_spiel: false,
                study_budgets: [50, 200],
            },
            GameChoice::Pig(rules) => {
                let label = format!("Pig to {}", rules.target);
                GameType {
                    sequences: format!("sequences of die rolls of {label}"),
                    label,
                    seed_name: "dice seed",
                    seeds_name: "dice seeds",
                    default_threads: 0,
                    record: RecordKind::Pig(rules),
                    objective: PigState::OBJECTIVE,
                    open_spiel: false,
                    study_budgets: [50, 200],
                }
            }
            GameChoice::ConnectFour => GameType {
                label: "Connect Four".into(),
                seed_name: "seed",
                sequences: "seeds of Connect Four".into(),
                seeds_name: "seeds",
                default_threads: 0,
                record: RecordKind::History,
                objective: ConnectFourState::OBJECTIVE,
                open_spiel: false,
                study_budgets: [50, 200],
            },
            GameChoice::TicTacToe => native_game("Tic-tac-toe".into(), TicTacToeState::OBJECTIVE),
            GameChoice::Hex(r) => native_game(
                format!(
                    "Hex {}×{}{}",
                    r.rows,
                    r.columns,
                    if r.swap { " with the swap" } else { "" }
                ),
                HexState::OBJECTIVE,
            ),
            GameChoice::Y(r) => native_game(format!("Y {}", r.size), YState::OBJECTIVE),
            GameChoice::Gomoku(r) => native_game(
                format!(
                    "Gomoku {}×{}, {} in a row{}{}",
                    r.rows,
                    r.columns,
                    r.connect,
                    if r.anti { ", anti" } else { "" },
                    if r.wrap { ", wrapped" } else { "" }
                ),
                GomokuState::OBJECTIVE,
            ),
            GameChoice::Pentago => native_game("Pentago".into(), PentagoState::OBJECTIVE),
            GameChoice::Othello => native_game("Othello".into(), OthelloState::OBJECTIVE),
            GameChoice::Breakthrough(r) => native_game(
                format!("Breakthrough {}×{}", r.rows, r.columns),
                BreakthroughState::OBJECTIVE,
            ),
            GameChoice::Clobber(r) => native_game(
                format!("Clobber {}×{}", r.rows, r.columns),
                ClobberState::OBJECTIVE,
            ),
            GameChoice::Checkers(r) => native_game(
                format!("Checkers {}×{}", r.rows, r.columns),
                CheckersState::OBJECTIVE,
            ),
            GameChoice::Mancala => native_game("Mancala (Kalah)".into(), MancalaState::OBJECTIVE),
            GameChoice::Oware(r) => native_game(
                format!("Oware {}×{}", r.houses_per_player, r.seeds_per_house),
                OwareState::OBJECTIVE,
            ),
            GameChoice::Nim(r) => native_game(
                format!(
                    "{}Nim {:?}",
                    if r.misere() { "Misère " } else { "" },
                    r.piles()
                ),
                NimState::OBJECTIVE,
            ),
            GameChoice::DotsAndBoxes(r) => native_game(
                format!("Dots and boxes {}×{}", r.rows, r.columns),
                DotsAndBoxesState::OBJECTIVE,
            ),
            GameChoice::Maedn(r) => native_game(
                format!(
                    "Mensch ärgere dich nicht{}",
                    if r.two_players_opposite {
                        ""
                    } else {
                        ", side by side"
                    }
                ),
                MaednState::OBJECTIVE,
            ),
            GameChoice::Backgammon(r) => native_game(
                if r == BackgammonRules::default() {
                    "Backgammon".into()
                } else {
                    format!("Backgammon, drawn after {} turns", r.max_player_turns)
                },
                BackgammonState::OBJECTIVE,
            ),
            // Every call into an OpenSpiel game takes Python's GIL, so a run uses one thread
            // unless told (the committed connect_four league: 3.6 s on one thread, 4.9 s on
            // two; docs/openspiel.md).
            GameChoice::OpenSpiel(game) => {
                let label = format!("OpenSpiel's {game}");
                GameType {
                    sequences: format!("seeds of {label}"),
                    label,
                    seed_name: "seed",
                    seeds_name: "seeds",
                    default_threads: 1,
                    record: RecordKind::History,
                    objective: ExternalGame::OBJECTIVE,
                    open_spiel: true,
                    study_budgets: [50, 200],
                }
            }
        }
    }

    /// What the game is played for, from which a controller spec takes the reward and final
    /// move it leaves out. The game's own `Game::OBJECTIVE`, read from the type `dispatch`
    /// plays, so no start state is needed (an OpenSpiel spec in the binary is read too);
    /// a test checks each game's against `dispatch`.
    pub fn objective(&self) -> Objective {
        self.describe().objective
    }

    /// The game's name for tables and messages: `Carcassonne`, `Pig to 100`, `Connect Four`.
    pub fn label(&self) -> String {
        self.describe().label
    }

    /// What the seed of a game's chance events is called in tables and messages.
    pub fn seed_name(&self) -> &'static str {
        self.describe().seed_name
    }

    /// A spec's Carcassonne `rules` are meaningful only when it plays Carcassonne: another game
    /// with rules other than the default is an error naming the field, not a silent no-op.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), (String, String)> {
        if !self.is_carcassonne() && *rules != Rules::default() {
            return Err((
                "rules".into(),
                format!(
                    "Carcassonne's rules, but the spec plays {}: leave `rules` out",
                    self.label()
                ),
            ));
        }
        Ok(())
    }

    /// That the game's start state can be built here: an OpenSpiel game that does not load
    /// (an unknown name, a bad parameter, a kind the searches do not play) is refused with the
    /// reason. Without OpenSpiel in this process its games are not checked: their specs are
    /// still read (tables, reports), and playing one is refused where it starts.
    pub fn check_startable(&self) -> Result<(), String> {
        if self.is_open_spiel_without_provider() {
            return Ok(());
        }
        struct Start;
        impl GameTask for Start {
            type Output = ();
            fn run<G: Game>(self, _: G) {}
        }
        self.dispatch(Start)
    }

    /// That this process can play the game: an OpenSpiel game where OpenSpiel cannot be
    /// loaded (the binary) is refused, the message naming `python -m evomcts`. Commands that
    /// play a run's games without going through a run's start (`replay`'s verification, the
    /// job scripts `slurm` writes) check it first, so nothing is reported as diverged or
    /// written to fail.
    pub fn check_playable_here(&self) -> Result<(), String> {
        match self {
            GameChoice::OpenSpiel(game) if self.is_open_spiel_without_provider() => {
                game.start().map(drop)
            }
            // Every game this process plays: the native ones, and OpenSpiel's with a provider.
            GameChoice::OpenSpiel(_)
            | GameChoice::Carcassonne
            | GameChoice::Pig(_)
            | GameChoice::ConnectFour
            | GameChoice::TicTacToe
            | GameChoice::Hex(_)
            | GameChoice::Y(_)
            | GameChoice::Gomoku(_)
            | GameChoice::Pentago
            | GameChoice::Othello
            | GameChoice::Breakthrough(_)
            | GameChoice::Clobber(_)
            | GameChoice::Checkers(_)
            | GameChoice::Mancala
            | GameChoice::Oware(_)
            | GameChoice::Nim(_)
            | GameChoice::DotsAndBoxes(_)
            | GameChoice::Maedn(_)
            | GameChoice::Backgammon(_) => Ok(()),
        }
    }

    /// An OpenSpiel game in a process that cannot load one (the binary): its specs are read,
    /// unchecked against the game, and playing it is refused where it starts (`dispatch`).
    fn is_open_spiel_without_provider(&self) -> bool {
        matches!(self, GameChoice::OpenSpiel(_)) && !super::open_spiel::provider_installed()
    }

    /// Worker threads a run of this game uses unless told: 0 (every core) for a native game,
    /// 1 for an OpenSpiel game ([`GameChoice::describe`]).
    pub fn default_threads(&self) -> usize {
        self.describe().default_threads
    }

    /// Whether the game gives moves features (the formula terminals `G` … `T`).
    pub fn offers_move_features(&self) -> bool {
        struct Offers;
        impl GameTask for Offers {
            type Output = bool;
            fn run<G: Game>(self, _: G) -> bool {
                G::OFFERS_MOVE_FEATURES
            }
        }
        self.dispatch(Offers).unwrap_or(false)
    }

    /// That the game offers what a controller asks of it (a Star evaluation), the message
    /// naming the setting.
    pub fn check_controller(&self, spec: &ControllerSpec) -> Result<(), String> {
        if self.is_open_spiel_without_provider() {
            return Ok(());
        }
        struct Check<'a>(&'a ControllerSpec);
        impl GameTask for Check<'_> {
            type Output = Result<(), String>;
            fn run<G: Game>(self, _: G) -> Result<(), String> {
                match self.0 {
                    ControllerSpec::Star(star) => {
                        star.validate_for::<G>().map_err(|e| e.to_string())
                    }
                    // A game that gives every move feature leaves nothing of an MCTS spec to
                    // check here; its formula files are read and checked with the spec.
                    _ if G::OFFERS_MOVE_FEATURES => Ok(()),
                    spec => spec.validate_for::<G>().map_err(|e| e.to_string()),
                }
            }
        }
        self.dispatch(Check(spec))?
            .map_err(|e| format!("{e} (in {})", self.label()))
    }

    /// The lowest and the highest final score a player can end with ([`Game::min_score`],
    /// [`Game::max_score`]); without a start state, no bound beyond `i32`.
    pub fn score_range(&self) -> (f64, f64) {
        struct ScoreRange;
        impl GameTask for ScoreRange {
            type Output = (f64, f64);
            fn run<G: Game>(self, start: G) -> (f64, f64) {
                (start.min_score(), start.max_score())
            }
        }
        let unbounded = (f64::from(i32::MIN), f64::from(i32::MAX));
        self.dispatch(ScoreRange).unwrap_or(unbounded)
    }

    /// The highest final score a player can reach ([`Game::max_score`]).
    pub fn max_score(&self) -> f64 {
        self.score_range().1
    }

    /// The OpenSpiel version that plays this game, recorded with its games (`None` for a
    /// native game).
    pub fn open_spiel_version(&self) -> Option<String> {
        self.describe()
            .open_spiel
            .then(super::open_spiel::installed_version)
            .flatten()
    }

    /// That `score` is a final score a game of this game can end with: a whole number in
    /// [`Self::score_range`]. [`Self::check_result`] checks each score of a result so.
    pub fn check_final_score(&self, score: f64) -> Result<(), String> {
        let (min, max) = self.score_range();
        if !(score.is_finite() && score.fract() == 0.0 && (min..=max).contains(&score)) {
            return Err(format!(
                "a final score of {} is a whole number from {min} to {max}, got {}",
                self.label(),
                evomcts_records::escape::number(score)
            ));
        }
        Ok(())
    }

    /// That `scores` (the first seat's, then the second's) are a result a game of this game
    /// can end with: each a final score ([`Self::check_final_score`]) and the pair one the
    /// game's rules allow ([`Game::check_result`]: Connect Four has one winner at most, a
    /// zero-sum game's scores sum to 0). Every reader of results from files or other
    /// processes (a league's records, a validation's rows, a job step's results) checks them
    /// here before it counts them. Without OpenSpiel in this process an OpenSpiel game's
    /// pair is not checked beyond each score.
    pub fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        scores
            .iter()
            .try_for_each(|&score| self.check_final_score(score))?;
        if self.is_open_spiel_without_provider() {
            return Ok(());
        }
        struct Check([f64; 2]);
        impl GameTask for Check {
            type Output = Result<(), String>;
            fn run<G: Game>(self, start: G) -> Result<(), String> {
                start.check_result(self.0)
            }
        }
        self.dispatch(Check(scores))?.map_err(|why| {
            let [a, b] = scores.map(evomcts_records::escape::number);
            format!("{a} and {b} are not a result a game can end with: {why}")
        })
    }

    /// Builds the controller of `spec` for this game once and drops it: what a run does before
    /// it touches the disk, so a spec that cannot be played leaves nothing behind.
    pub fn check_builds(&self, spec: &ControllerSpec) -> Result<(), String> {
        struct Build<'a>(&'a ControllerSpec);
        impl GameTask for Build<'_> {
            type Output = Result<(), String>;
            fn run<G: Game>(self, _: G) -> Result<(), String> {
                self.0.build::<G>(0).map(drop).map_err(|e| e.to_string())
            }
        }
        self.dispatch(Build(spec))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every native game that is one of OpenSpiel's (issue 49), as a spec names it: read with
    /// the spec files' RON extensions, started, and played to the end between two random
    /// players into its history, its label and objective the dispatched game's.
    const NATIVE_SPECS: [(&str, &str); 15] = [
        ("TicTacToe", "Tic-tac-toe"),
        ("Hex(size: 5)", "Hex 5×5"),
        ("Y(size: 7)", "Y 7"),
        ("Gomoku(size: 9, connect: 4)", "Gomoku 9×9, 4 in a row"),
        ("Pentago", "Pentago"),
        ("Othello", "Othello"),
        ("Breakthrough(rows: 6, columns: 6)", "Breakthrough 6×6"),
        ("Clobber(rows: 5, columns: 6)", "Clobber 5×6"),
        ("Checkers(rows: 8, columns: 8)", "Checkers 8×8"),
        ("Mancala", "Mancala (Kalah)"),
        (
            "Oware(houses_per_player: 6, seeds_per_house: 4)",
            "Oware 6×4",
        ),
        (
            "Nim(piles: [1, 3, 5, 7], misere: true)",
            "Misère Nim [1, 3, 5, 7]",
        ),
        ("DotsAndBoxes(rows: 2, columns: 2)", "Dots and boxes 2×2"),
        (
            "Maedn(two_players_opposite: true)",
            "Mensch ärgere dich nicht",
        ),
        ("Backgammon(max_player_turns: 500)", "Backgammon"),
    ];

    #[test]
    fn every_native_game_reads_starts_and_plays() {
        struct Of;
        impl GameTask for Of {
            type Output = Objective;
            fn run<G: Game>(self, _: G) -> Objective {
                G::OBJECTIVE
            }
        }
        let options = ron::Options::default().with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        );
        let random = ControllerSpec::Random;
        for (text, label) in NATIVE_SPECS {
            let choice: GameChoice = options
                .from_str(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(choice.label(), label, "{text}");
            assert_eq!(choice.dispatch(Of).unwrap(), choice.objective(), "{text}");
            choice.check_startable().unwrap();
            choice.check_playable_here().unwrap();
            let again: GameChoice = options
                .from_str(&options.to_string(&choice).unwrap())
                .unwrap();
            assert_eq!(again, choice, "{text} written and read back");
            let played = super::super::play_seated(
                choice,
                Rules::default(),
                3,
                [&random, &random],
                [1, 2],
                None,
            )
            .unwrap()
            .game;
            assert!(
                matches!(played, super::super::PlayedGame::History(_)),
                "{text} is recorded by its history"
            );
            assert_eq!(played.choice(), choice, "{text}");
        }
    }

    /// A native game's parameters are checked where a spec is read: a board OpenSpiel's game
    /// cannot start on is refused, naming why.
    #[test]
    fn a_native_game_with_bad_parameters_is_refused_where_it_is_read() {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        for text in [
            "Hex(size: 1)",
            "Y(size: 0)",
            "Checkers(rows: 6, columns: 6)",
            "Oware(houses_per_player: 9, seeds_per_house: 4)",
            "Nim(piles: [], misere: true)",
            "Backgammon(max_player_turns: 0)",
        ] {
            assert!(
                options.from_str::<GameChoice>(text).is_err(),
                "{text} was read"
            );
        }
    }

    /// `objective` reads each game's `Game::OBJECTIVE` from the type `dispatch` plays.
    #[test]
    fn the_objective_is_the_dispatched_games() {
        struct Of;
        impl GameTask for Of {
            type Output = Objective;
            fn run<G: Game>(self, _: G) -> Objective {
                G::OBJECTIVE
            }
        }
        for choice in [
            GameChoice::Carcassonne,
            GameChoice::Pig(PigRules::default()),
            GameChoice::ConnectFour,
        ] {
            let dispatched = choice.dispatch(Of).unwrap();
            assert_eq!(choice.objective(), dispatched, "{}", choice.label());
        }
        assert_eq!(GameChoice::Carcassonne.objective(), Objective::Points);
        assert_eq!(GameChoice::ConnectFour.objective(), Objective::WinLoss);
    }

    /// A game's `record` is the kind of record `play_seated` writes for it, and its words are
    /// the ones the tables, summaries and report pages have always printed.
    #[test]
    fn each_game_describes_the_record_it_plays_and_its_words() {
        let random = ControllerSpec::Random;
        for choice in [
            GameChoice::Carcassonne,
            GameChoice::Pig(PigRules::new(20).unwrap()),
            GameChoice::ConnectFour,
        ] {
            let played = super::super::play_seated(
                choice,
                Rules::default(),
                7,
                [&random, &random],
                [1, 2],
                None,
            )
            .unwrap()
            .game;
            let kind = match &played {
                super::super::PlayedGame::Carcassonne(_) => RecordKind::Carcassonne,
                super::super::PlayedGame::Pig(r) => RecordKind::Pig(r.pig),
                super::super::PlayedGame::History(_) => RecordKind::History,
            };
            assert_eq!(choice.describe().record, kind, "{}", choice.label());
            assert_eq!(played.choice(), choice);
        }
        let words = |c: GameChoice| {
            let d = c.describe();
            (d.label, d.seed_name, d.sequences, d.seeds_name)
        };
        assert_eq!(
            words(GameChoice::Carcassonne),
            (
                "Carcassonne".into(),
                "tile seed",
                "tile sequences".into(),
                "tile seeds"
            )
        );
        assert_eq!(
            words(GameChoice::Pig(PigRules::default())),
            (
                "Pig to 100".into(),
                "dice seed",
                "sequences of die rolls of Pig to 100".into(),
                "dice seeds"
            )
        );
        assert_eq!(
            words(GameChoice::ConnectFour),
            (
                "Connect Four".into(),
                "seed",
                "seeds of Connect Four".into(),
                "seeds"
            )
        );
        assert_eq!(GameChoice::Carcassonne.default_threads(), 0);
        assert_eq!(GameChoice::ConnectFour.open_spiel_version(), None);
    }
}
