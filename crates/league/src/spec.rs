//! A league as a researcher writes it: a RON file naming the controllers, the games per match,
//! the master seed, the rules and the bonus-point thresholds.
//!
//! Specs are parsed with the `unwrap_variant_newtypes` and `implicit_some` extensions so that
//! `Mcts(c_e: 1.0, es: (mode: Partial))` reads naturally. Errors name the file, the line and
//! column (syntax) or the field (meaning).

use evomcts_arena::GameChoice;
use evomcts_games::carcassonne::Rules;
use evomcts_search::ControllerSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Match points and their bonus thresholds (Table III of the main paper). A match's winner is
/// the controller that won more of its games; the winner's share is its wins over all games of
/// the match (draws included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BonusRules {
    pub win_points: u32,
    pub draw_points: u32,
    pub loss_points: u32,
    /// A bonus win point when the winner's share exceeds this (0.75 in the paper; the paper's
    /// public code used 0.70 with `>=`).
    pub bonus_win_share: f64,
    /// Strictly above (`true`, the paper) or at least (`false`).
    pub bonus_win_strict: bool,
    /// A bonus loss point to the loser when the winner's share is at most this (0.55).
    pub bonus_loss_share: f64,
    /// Strictly below (`true`) or at most (`false`, the paper).
    pub bonus_loss_strict: bool,
}

impl Default for BonusRules {
    fn default() -> Self {
        BonusRules {
            win_points: 4,
            draw_points: 2,
            loss_points: 0,
            bonus_win_share: 0.75,
            bonus_win_strict: true,
            bonus_loss_share: 0.55,
            bonus_loss_strict: false,
        }
    }
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    pub name: String,
    pub spec: ControllerSpec,
    /// A person plays this entrant's games (`person: true`, written by `evomcts play`): its
    /// moves are the record's, so its `spec` is unused (`play` writes `Random`) and a league
    /// refuses to play it; `replay` plays such a game again with the person's recorded moves
    /// ([`crate::person`]). Left out of the stored spec when false, so the hash of every other
    /// spec is unchanged.
    #[serde(default, skip_serializing_if = "is_false")]
    pub person: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// What to keep of each ES decision in the records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsDetail {
    /// The chosen formula and each generation's best and mean fitness.
    #[default]
    Summary,
    /// Every candidate of every generation as well (large: ~80 formulas per decision).
    Full,
}

/// What to keep of each search decision in the records. Off unless the spec asks, and left out
/// of the stored spec when off, so the hash of a spec that does not use it is unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SearchDetail {
    #[default]
    Off,
    /// For every MCTS decision the `k` most visited root children (move, visits, mean reward,
    /// and `H` and `p` when the policy reads them) and the simulations spent; for Star the
    /// searched value and the nodes visited. `k` is between 1 and
    /// [`MAX_RECORDED_ROOT_CHILDREN`].
    RootChildren(u16),
}

impl SearchDetail {
    pub fn is_off(&self) -> bool {
        *self == SearchDetail::Off
    }

    /// Root children kept per decision, `None` when nothing is recorded.
    pub fn root_children(&self) -> Option<usize> {
        match *self {
            SearchDetail::Off => None,
            SearchDetail::RootChildren(k) => Some(k as usize),
        }
    }
}

/// The most root children `search_detail: RootChildren(k)` may keep per decision, which bounds
/// a record's size (about 90 bytes a child in JSON).
pub const MAX_RECORDED_ROOT_CHILDREN: u16 = 64;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub games_per_match: u32,
    pub seed: u64,
    /// The game played: Carcassonne (under `rules`) unless the spec names another, e.g.
    /// `game: Pig(target: 100)`; left out of the stored spec when Carcassonne, so the hash of
    /// a spec that does not name a game is unchanged.
    #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    #[serde(default)]
    pub rules: Rules,
    #[serde(default)]
    pub bonus: BonusRules,
    #[serde(default)]
    pub es_detail: EsDetail,
    #[serde(default, skip_serializing_if = "SearchDetail::is_off")]
    pub search_detail: SearchDetail,
    pub controllers: Vec<Entrant>,
}

// The spec-file machinery is shared with evolution runs; these names stay here for callers.
pub use evomcts_records::runfs::{
    parse_spec, read_spec_text, ron_options, SpecFile, SpecFileError,
};

/// The most games one match may have.
pub const MAX_GAMES_PER_MATCH: u32 = 100_000;
/// The most entrants a league may have.
pub const MAX_CONTROLLERS: usize = 256;
/// The most games a whole league may schedule (its schedule is held in memory).
pub const MAX_LEAGUE_GAMES: u64 = 10_000_000;
/// The most points a match result may give: a standing sums one result per match (at most
/// 2 × 255 of them, plus a bonus point each), which then stays far inside `u32`.
pub const MAX_MATCH_POINTS: u32 = 1000;
/// The longest entrant or league name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// A name from a spec: not blank, no control characters, at most [`MAX_NAME_CHARS`].
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("must be at most {MAX_NAME_CHARS} characters"));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!(
            "must not hold control characters, found {:?} in {:?}",
            c, name
        ));
    }
    Ok(())
}

impl SpecFile for LeagueSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        let objective = self.game.objective();
        for entrant in &mut self.controllers {
            entrant.spec.fill_defaults(objective);
        }
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        for (i, c) in self.controllers.iter_mut().enumerate() {
            evomcts_records::runfs::resolve_controller(&mut c.spec, base).map_err(
                |(field, message)| {
                    (
                        format!("controllers[{i}].spec ({}).{field}", c.name),
                        message,
                    )
                },
            )?;
        }
        Ok(())
    }
}

impl LeagueSpec {
    /// Reads a spec file; the files it names (formula, grammar) are read relative to the spec
    /// file's folder and their content put in the spec, so its hash covers them.
    pub fn from_file(path: impl AsRef<Path>) -> Result<LeagueSpec, SpecFileError> {
        <Self as SpecFile>::from_file(path)
    }

    /// Parses and validates a spec as it is (files it names are not read); `file` names it in
    /// errors.
    pub fn from_ron(text: &str, file: &str) -> Result<LeagueSpec, SpecFileError> {
        <Self as SpecFile>::from_ron(text, file)
    }

    /// The spec as RON, in the form `from_ron` reads.
    pub fn to_ron(&self) -> String {
        <Self as SpecFile>::to_ron(self)
    }

    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        if let Err(m) = check_name(&self.name) {
            return err("name", m);
        }
        if self.games_per_match == 0 || self.games_per_match > MAX_GAMES_PER_MATCH {
            return err(
                "games_per_match",
                format!(
                    "must be between 1 and {MAX_GAMES_PER_MATCH}, got {}",
                    self.games_per_match
                ),
            );
        }
        let n = self.controllers.len();
        if !(2..=MAX_CONTROLLERS).contains(&n) {
            return err(
                "controllers",
                format!("needs between 2 and {MAX_CONTROLLERS} entrants, found {n}"),
            );
        }
        let games = (n * (n - 1)) as u64 * u64::from(self.games_per_match);
        if games > MAX_LEAGUE_GAMES {
            return err(
                "games_per_match",
                format!(
                    "{n} entrants and {} games per match make {games} games, more than the \
                     {MAX_LEAGUE_GAMES} a league may have",
                    self.games_per_match
                ),
            );
        }
        if let Err(m) = self.game.check_startable() {
            return err("game", m);
        }
        for (i, c) in self.controllers.iter().enumerate() {
            if let Err(m) = check_name(&c.name) {
                return err(&format!("controllers[{i}].name"), m);
            }
            if self.controllers[..i].iter().any(|d| d.name == c.name) {
                return err(
                    &format!("controllers[{i}].name"),
                    format!("`{}` is used twice", c.name),
                );
            }
            if let Err((f, m)) = evomcts_records::bounds::check_controller(&c.spec) {
                let field = format!("controllers[{i}].spec ({})", c.name);
                return match f.as_str() {
                    "" => err(&field, m),
                    f => err(&format!("{field}.{f}"), m),
                };
            }
            if let Err(m) = self.game.check_controller(&c.spec) {
                return err(&format!("controllers[{i}].spec ({})", c.name), m);
            }
        }
        if let Err((f, m)) = self.game.check_rules(&self.rules) {
            return err(&f, m);
        }
        if !self.game.is_carcassonne() && !self.search_detail.is_off() {
            return err(
                "search_detail",
                format!(
                    "search summaries are recorded for Carcassonne only; this league plays {}",
                    self.game.label()
                ),
            );
        }
        if let SearchDetail::RootChildren(k) = self.search_detail {
            if !(1..=MAX_RECORDED_ROOT_CHILDREN).contains(&k) {
                return err(
                    "search_detail",
                    format!(
                        "RootChildren(k) keeps between 1 and {MAX_RECORDED_ROOT_CHILDREN} root children per decision, got {k}"
                    ),
                );
            }
        }
        let b = &self.bonus;
        for (f, v) in [
            ("bonus.win_points", b.win_points),
            ("bonus.draw_points", b.draw_points),
            ("bonus.loss_points", b.loss_points),
        ] {
            if v > MAX_MATCH_POINTS {
                return err(f, format!("must be at most {MAX_MATCH_POINTS}, got {v}"));
            }
        }
        for (f, v) in [
            ("bonus.bonus_win_share", b.bonus_win_share),
            ("bonus.bonus_loss_share", b.bonus_loss_share),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return err(f, format!("must be a share in [0, 1], found {v}"));
            }
        }
        Ok(())
    }

    /// A hash of everything that determines the league's games and tables: a run refuses to
    /// resume under a spec whose hash differs. FNV-1a over the canonical RON text, stable
    /// across platforms and Rust versions.
    pub fn hash(&self) -> String {
        evomcts_records::runfs::fnv1a_hex(&self.to_ron())
    }

    pub fn names(&self) -> Vec<String> {
        self.controllers.iter().map(|c| c.name.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"(
        name: "tiny",
        games_per_match: 2,
        seed: 7,
        controllers: [
            (name: "Random", spec: Random),
            (name: "MCTS", spec: Mcts(sims: 50, c_e: 1.0)),
        ],
    )"#;

    #[test]
    fn a_spec_round_trips_through_ron_and_keeps_its_hash() {
        let spec = LeagueSpec::from_ron(GOOD, "tiny.ron").unwrap();
        let again = LeagueSpec::from_ron(&spec.to_ron(), "again.ron").unwrap();
        assert_eq!(spec, again);
        assert_eq!(spec.hash(), again.hash());
        let mut other = spec.clone();
        other.seed = 8;
        assert_ne!(spec.hash(), other.hash());
    }

    /// A controller that names no reward or final move plays with its game's (win/loss games:
    /// `WinLoss`, most visits; Carcassonne: the paper's score difference, highest Q), and the
    /// stored spec writes them, so its hash is that of a spec naming them.
    #[test]
    fn reward_and_final_move_left_out_are_the_games() {
        use evomcts_search::mcts::{FinalMove, Reward};
        for (game, reward, final_move) in [
            ("", "ScoreDiff", "HighestQ"),
            ("game: ConnectFour,", "WinLoss", "MostVisits"),
            ("game: Pig(target: 100),", "WinLoss", "MostVisits"),
            (r#"game: OpenSpiel(name: "hex"),"#, "WinLoss", "MostVisits"),
        ] {
            let text = GOOD.replace("seed: 7,", &format!("seed: 7, {game}"));
            let spec = LeagueSpec::from_ron(&text, "tiny.ron").unwrap();
            let ControllerSpec::Mcts(settings) = &spec.controllers[1].spec else {
                panic!("the second controller is MCTS");
            };
            assert_eq!(format!("{:?}", settings.reward.unwrap()), reward, "{game}");
            assert_eq!(
                format!("{:?}", settings.final_move.unwrap()),
                final_move,
                "{game}"
            );
            let stored = spec.to_ron();
            assert!(stored.contains(&format!("reward: {reward},")), "{stored}");
            assert!(
                stored.contains(&format!("final_move: {final_move},")),
                "{stored}"
            );
            let named = text.replace(
                "c_e: 1.0)",
                &format!("c_e: 1.0, reward: {reward}, final_move: {final_move})"),
            );
            assert_eq!(
                LeagueSpec::from_ron(&named, "named.ron").unwrap().hash(),
                spec.hash()
            );
            // A value the spec names is kept whatever the game.
            let other = text.replace("c_e: 1.0)", "c_e: 1.0, reward: ScaledScoreDiff(5.0))");
            let other = LeagueSpec::from_ron(&other, "other.ron").unwrap();
            let ControllerSpec::Mcts(settings) = &other.controllers[1].spec else {
                panic!("the second controller is MCTS");
            };
            assert_eq!(settings.reward, Some(Reward::ScaledScoreDiff(5.0)));
            assert!(matches!(
                settings.final_move,
                Some(FinalMove::HighestQ | FinalMove::MostVisits)
            ));
        }
    }

    #[test]
    fn search_detail_is_left_out_of_a_spec_that_does_not_use_it() {
        let spec = LeagueSpec::from_ron(GOOD, "tiny.ron").unwrap();
        assert!(!spec.to_ron().contains("search_detail"));
        let with = GOOD.replace("seed: 7,", "seed: 7, search_detail: RootChildren(5),");
        let detailed = LeagueSpec::from_ron(&with, "tiny.ron").unwrap();
        assert_eq!(detailed.search_detail.root_children(), Some(5));
        assert_ne!(spec.hash(), detailed.hash());
        let again = LeagueSpec::from_ron(&detailed.to_ron(), "again.ron").unwrap();
        assert_eq!(again, detailed);
        for bad in ["RootChildren(0)", "RootChildren(65)"] {
            let text = GOOD.replace("seed: 7,", &format!("seed: 7, search_detail: {bad},"));
            let msg = LeagueSpec::from_ron(&text, "tiny.ron")
                .unwrap_err()
                .to_string();
            assert!(msg.contains("search_detail"), "{msg}");
        }
    }

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        let bad = GOOD.replace("games_per_match: 2,", "games_per_match: two,");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("tiny.ron:3:"), "{msg}");
    }

    #[test]
    fn invalid_fields_are_named() {
        let bad = GOOD.replace("c_e: 1.0", "c_e: -1.0");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("controllers[1].spec (MCTS)") && msg.contains("c_e"),
            "{msg}"
        );
        let bad = GOOD.replace("\"MCTS\"", "\"Random\"");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains("used twice"), "{msg}");
        let bad = GOOD.replace("games_per_match: 2", "games_per_match: 0");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains("games_per_match"), "{msg}");
    }
}
