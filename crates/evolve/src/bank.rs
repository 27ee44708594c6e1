//! The fingerprint bank of functional hashing (`hashing`): sibling sets recorded from real
//! MCTS searches on positions of seeded random games, and its file, `fingerprint-bank.csv`.
//!
//! - **Which searches.** Each position is searched once with the candidate's MCTS settings and
//!   the seed formula (`bank_settings`), and every sibling set the tree policy ranks in the
//!   finished tree is taken (`MctsController::sibling_sets`), in order, until the bank holds
//!   the sets asked for. Carcassonne's positions are `carcassonne::sample_positions_in`'s (a
//!   random game stopped at a turn drawn from 0..60, its tile stack shuffled by the tile
//!   seed); every other game's, native or OpenSpiel's, are `arena::random_game_position`'s (a
//!   decision with two or more legal moves drawn from a whole random game), through the
//!   game registry's one dispatch. A mix records its games in turn, game j of k contributing
//!   `situations / k` sets (one more for the first `situations % k`), concatenated in the
//!   mix's order, each from its own seed stream with its own candidate settings.
//! - **Seeds.** Every seed comes from the master seed through `derive_seed` on stream 4 (the
//!   run's own streams are 1 to 3, the fingerprint check's 5), a batch of 64 positions per
//!   seed, with the two top bits cleared (so a Carcassonne batch's tile seeds, the seed plus
//!   the position's index, stay in evolution's namespace, `namespace`), and each random game
//!   of another game seeded in that namespace too. The bank is a pure function of the spec:
//!   neither thread count nor anything else changes it.
//! - **Knowledge and move features.** The tree computes `H` and `p`, and the move features,
//!   only for formulas that read them, so when the grammar offers them and the seed formula
//!   reads none the bank's formula gets a `0*H` term (or `0*G`, which brings the features
//!   and the knowledge both): the term changes no value, hence no choice.
//! - **The file.** One row per child, its set's number first, then the terminals the table of
//!   terminals gives a bank column (`formula::TERMINALS`), and, only when some child of the
//!   bank has a move feature that is not 0, one column per move feature named by its Python
//!   keyword (`mover_gain` … `turn`). A bank without move features is therefore written
//!   exactly as before they were carried, and a file without their columns reads back with
//!   them 0. Numbers are written in Rust's shortest round-trip form, so a bank read back has
//!   the same bits.

use super::games_spec::GamesSpec;
use super::namespace::{evolution_tile_seed, VALIDATION_BIT};
use super::population::PopulationError;
use super::spec::{EvolveSpec, FitnessSpec};
use evomcts_arena::{random_game_position, GameTask};
use evomcts_formula::{SelectionInputs, SiblingSets, Terminal};
use evomcts_games::carcassonne::sample_positions_in;
use evomcts_games::Game;
use evomcts_records::csv::{CsvError, Table};
use evomcts_records::runfs::derive_seed;
use evomcts_search::mcts::{MctsController, MctsSettings, Selection};
use rayon::prelude::*;
use std::path::Path;

/// The bank's file in the run folder.
pub const BANK_FILE: &str = "fingerprint-bank.csv";

/// Seed stream of the bank (the run's own are 1 to 3, the fingerprint check's 5).
const BANK: u64 = 4;
/// Positions searched per parallel batch while recording the bank.
const BATCH: usize = 64;
/// Carcassonne's positions stop at a turn drawn from this range (a game has 71 turns).
const TURNS: std::ops::Range<usize> = 0..60;
/// The random games of a batch of another game are seeded from the batch's seed and this tag
/// ("gameseed" in ASCII) with their index; the searches from the batch's seed and their index.
const GAMES: u64 = 0x6761_6d65_7365_6564;
/// The random games tried per position asked before a batch of a game gives up.
const TRIES_PER_POSITION: usize = 4;

/// The candidate settings of `games` with the seed formula; a formula that reads no move
/// feature gets a `0*G` term when the grammar offers one, and otherwise one that reads no
/// knowledge a `0*H` term when the grammar offers `H` or `p`, so the tree computes what the
/// candidates will read (the term changes no value, hence no choice).
fn bank_settings(spec: &EvolveSpec, games: &GamesSpec) -> Result<MctsSettings, String> {
    let grammar = spec.grammar()?;
    let offers = |ts: &[Terminal]| ts.iter().any(|t| grammar.terminals().contains(t));
    let reads = |ts: &[Terminal]| ts.iter().any(|&t| spec.seed_formula.uses(t));
    let mut formula = spec.seed_formula.to_string();
    if offers(&Terminal::MOVE_FEATURES) && !reads(&Terminal::MOVE_FEATURES) {
        formula = format!("{formula} + 0*{}", Terminal::MOVE_FEATURES[0].symbol());
    } else if offers(&Terminal::KNOWLEDGE) && !reads(&Terminal::KNOWLEDGE) {
        formula = format!("{formula} + 0*H");
    }
    Ok(MctsSettings {
        selection: Selection::Formula(formula),
        ..games.candidate.clone()
    })
}

/// Records the bank of `spec` (see the module): `situations` sibling sets from searches with
/// the bank settings on positions of seeded random games of the spec's game, or of each game
/// of its mix in turn. An error says why not: bandit fitness, a game this process cannot play
/// (an OpenSpiel game without the Python package), or a budget that ranks too few sets.
pub fn record_bank(spec: &EvolveSpec, situations: usize) -> Result<SiblingSets, String> {
    match &spec.fitness {
        FitnessSpec::Bandit(_) => Err(
            "functional hashing needs games fitness: the bank holds sibling sets of MCTS \
             searches"
                .into(),
        ),
        // The planted control's situations are synthetic, from the distribution of its truth
        // (`planted`), from another seed than the truth's.
        FitnessSpec::Planted(p) => Ok(evomcts_formula::synthetic_bank(
            situations,
            derive_seed(spec.seed, &[BANK]),
            p.c_e,
        )),
        FitnessSpec::Games(games) => record_game(spec, games, &[BANK], situations),
        FitnessSpec::Mixed(mix) => {
            let k = mix.games.len();
            let mut bank = SiblingSets::new();
            for (j, games) in mix.games.iter().enumerate() {
                let share = situations / k + usize::from(j < situations % k);
                if share == 0 {
                    continue;
                }
                let sets = record_game(spec, games, &[BANK, j as u64], share)
                    .map_err(|e| format!("game {j} of the mix ({}): {e}", games.game.label()))?;
                bank.append(&sets);
            }
            Ok(bank)
        }
    }
}

/// `situations` sets of one game's searches, its batch seeds derived from the master seed
/// through `stream` and the batch's number.
fn record_game(
    spec: &EvolveSpec,
    games: &GamesSpec,
    stream: &[u64],
    situations: usize,
) -> Result<SiblingSets, String> {
    let settings = bank_settings(spec, games)?;
    // Two top bits clear: a Carcassonne batch's tile seeds (this seed + i) stay in the
    // evolution namespace.
    let batch_seed = |batch: u64| {
        let path: Vec<u64> = stream.iter().copied().chain([batch]).collect();
        derive_seed(spec.seed, &path) & !(VALIDATION_BIT | VALIDATION_BIT >> 1)
    };
    if games.game.is_carcassonne() {
        let rules = games.rules;
        return record_sets(&settings, situations, |batch| {
            let seed = batch_seed(batch);
            Ok((seed, sample_positions_in(rules, BATCH, seed, TURNS)))
        });
    }
    let label = games.game.label();
    games
        .game
        .check_playable_here()
        .map_err(|e| format!("cannot record a bank of {label} here: {e}"))?;
    let task = RandomGames {
        settings: &settings,
        situations,
        batch_seed: &batch_seed,
    };
    games
        .game
        .dispatch_with_rules(games.rules, task)
        .map_err(|e| format!("cannot record a bank of {label}: {e}"))?
}

/// The bank of a game other than Carcassonne, on positions of its random games.
struct RandomGames<'a> {
    settings: &'a MctsSettings,
    situations: usize,
    batch_seed: &'a dyn Fn(u64) -> u64,
}

impl GameTask for RandomGames<'_> {
    type Output = Result<SiblingSets, String>;
    fn run<G: Game>(self, start: G) -> Self::Output {
        record_sets(self.settings, self.situations, |batch| {
            let seed = (self.batch_seed)(batch);
            Ok((seed, random_positions(&start, seed)?))
        })
    }
}

/// A batch of positions of random games from `start`: game t seeded by the batch's `seed`,
/// [`GAMES`] and t, in evolution's namespace, until [`BATCH`] positions (a game without a
/// decision of two moves or more gives none).
fn random_positions<G: Game>(start: &G, seed: u64) -> Result<Vec<G>, String> {
    let tries = BATCH * TRIES_PER_POSITION;
    let positions: Vec<G> = (0..tries as u64)
        .filter_map(|t| {
            random_game_position(start, evolution_tile_seed(derive_seed(seed, &[GAMES, t])))
        })
        .take(BATCH)
        .collect();
    if positions.is_empty() {
        return Err(format!(
            "{tries} random games reached no decision with two or more legal moves"
        ));
    }
    Ok(positions)
}

/// Searches the batches of positions `positions(b)` gives (with their seed) in order, each
/// position once by a controller seeded from the batch's seed and its index, and keeps every
/// ranked sibling set of each tree, in order, until `situations` sets.
fn record_sets<G: Game>(
    settings: &MctsSettings,
    situations: usize,
    mut positions: impl FnMut(u64) -> Result<(u64, Vec<G>), String>,
) -> Result<SiblingSets, String> {
    // A low budget leaves most nodes partly visited; give up rather than search for ever.
    let max_positions = situations.saturating_mul(20).saturating_add(BATCH);
    let mut bank = SiblingSets::new();
    let (mut batch, mut searched) = (0u64, 0usize);
    while bank.len() < situations {
        if searched >= max_positions {
            return Err(format!(
                "{searched} positions searched with the candidate's settings rank only {} \
                 sibling sets; lower `situations` or raise the candidate's `sims`",
                bank.len()
            ));
        }
        let (seed, states) = positions(batch)?;
        let sets: Vec<SiblingSets> = states
            .par_iter()
            .enumerate()
            .map(|(i, state)| {
                let mut controller = MctsController::new(settings, derive_seed(seed, &[i as u64]))
                    .map_err(|e| e.to_string())?;
                controller
                    .try_choose_move(state)
                    .map_err(|e| e.to_string())?;
                let mut sets = SiblingSets::new();
                controller.sibling_sets(&mut sets);
                Ok(sets)
            })
            .collect::<Result<_, String>>()?;
        for s in &sets {
            bank.append(s);
        }
        searched += states.len();
        batch += 1;
    }
    bank.truncate(situations);
    Ok(bank)
}

/// The terminals the table gives a bank column (`formula::TERMINALS`, `bank_column`), in the
/// table's order: the bank's columns after `set`.
fn bank_terminals() -> impl Iterator<Item = (Terminal, &'static str)> {
    evomcts_formula::TERMINALS
        .iter()
        .filter_map(|t| t.bank_column.map(|c| (t.terminal, c)))
}

/// The move features' columns, in `Terminal::MOVE_FEATURES` order, each named by the
/// feature's Python keyword.
fn feature_columns() -> impl Iterator<Item = (Terminal, &'static str)> {
    Terminal::MOVE_FEATURES
        .iter()
        .map(|&t| (t, t.info().keyword))
}

/// The columns after `set`: the bank columns, then the features' when `features`.
fn columns(features: bool) -> impl Iterator<Item = (Terminal, &'static str)> {
    bank_terminals().chain(feature_columns().filter(move |_| features))
}

/// `set`, then [`columns`].
fn bank_header(features: bool) -> String {
    std::iter::once("set")
        .chain(columns(features).map(|(_, c)| c))
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether some child of the bank has a move feature that is not 0 (`+0.0`, bit for bit):
/// whether its file carries the features' columns.
pub fn carries_move_features(bank: &SiblingSets) -> bool {
    bank.iter()
        .flatten()
        .any(|x| x.features.iter().any(|f| f.to_bits() != 0))
}

/// The bank as CSV (see the module): one row per child, its set's number first, the move
/// features' columns only when [`carries_move_features`].
pub fn bank_csv(bank: &SiblingSets) -> String {
    let features = carries_move_features(bank);
    let mut out = String::with_capacity(bank.children() * if features { 120 } else { 80 });
    out.push_str(&bank_header(features));
    out.push('\n');
    for (i, set) in bank.iter().enumerate() {
        for x in set {
            out.push_str(&i.to_string());
            for (t, _) in columns(features) {
                out.push_str(&format!(",{}", t.read(x)));
            }
            out.push('\n');
        }
    }
    out
}

/// Reads a bank written by `bank_csv`, with or without the move features' columns (through
/// `records::csv`; a header that is neither is reported as one that should be the header
/// without them); `file` names it in errors.
pub fn parse_bank(text: &str, file: &str) -> Result<SiblingSets, PopulationError> {
    let corrupt = |e: CsvError| match e {
        CsvError::Io { file, message } => PopulationError::Inconsistent { file, message },
        e => PopulationError::Corrupt {
            file: file.to_string(),
            line: e.line().unwrap_or(1),
            column: 1,
            message: e.detail(),
        },
    };
    let features = text.lines().next() == Some(bank_header(true).as_str());
    let table = Table::parse(Path::new(file), text, &bank_header(features)).map_err(corrupt)?;
    let mut bank = SiblingSets::new();
    let mut current: Vec<SelectionInputs> = Vec::new();
    let mut set = 0usize;
    for row in table.rows() {
        let index: usize = row.parse(0, "a set number").map_err(corrupt)?;
        if index != set {
            if index != set + 1 || current.is_empty() {
                return Err(corrupt(
                    row.field_error(0, format!("set {index} follows set {set}")),
                ));
            }
            bank.push_set(current.drain(..));
            set = index;
        }
        let mut inputs = SelectionInputs::default();
        for (k, (t, _)) in columns(features).enumerate() {
            *t.slot_mut(&mut inputs) = row.parse(k + 1, "a number").map_err(corrupt)?;
        }
        current.push(inputs);
    }
    bank.push_set(current);
    Ok(bank)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(grammar: &str) -> EvolveSpec {
        let text = format!(
            r#"(
                name: "bank", seed: 3, grammar: {grammar:?},
                strategy: (mu: 1, lambda: 1, generations: 1),
                noise: (samples: 2, functional_hashing: (situations: 30)),
                fitness: Carcassonne(candidate: (sims: 30), baseline: Mcts(sims: 8)),
            )"#
        );
        EvolveSpec::from_ron(&text, "bank.ron").unwrap()
    }

    fn knows(bank: &SiblingSets) -> bool {
        bank.iter()
            .flatten()
            .any(|x| x.heuristic != 0.0 || x.prior != 0.0)
    }

    /// Knowledge and features zeroed: what a bank without them would hold.
    fn strip(bank: &SiblingSets) -> SiblingSets {
        let mut out = SiblingSets::new();
        for set in bank.iter() {
            out.push_set(set.iter().map(|x| SelectionInputs {
                heuristic: 0.0,
                prior: 0.0,
                features: Default::default(),
                ..*x
            }));
        }
        out
    }

    #[test]
    fn the_bank_carries_knowledge_exactly_when_the_grammar_offers_it() {
        let with_h = r#"Grammar(name: "h", functions: ["+", "*"], terminals: ["Q", "n", "H"], constants: [1.0], c_e_values: [0.5], depth_cap: 6, subtree_depth: (min: 1, max: 2), internal_node_probability: 0.9)"#;
        let plain = record_bank(&spec("paper"), 30).unwrap();
        let known = record_bank(&spec(with_h), 30).unwrap();
        assert_eq!((plain.len(), known.len()), (30, 30));
        assert!(!knows(&plain));
        assert!(knows(&known));
        assert!(!carries_move_features(&known));
        // The `0*H` term changes no choice: the same sets, knowledge aside.
        assert_eq!(strip(&known), plain);
    }

    #[test]
    fn the_bank_carries_move_features_exactly_when_the_grammar_offers_them() {
        let file = include_str!("../../../grammars/carcassonne_features.ron");
        let features = &file[file.find("Grammar(").unwrap()..];
        let plain = record_bank(&spec("paper"), 30).unwrap();
        let featured = record_bank(&spec(features), 30).unwrap();
        assert!(carries_move_features(&featured) && knows(&featured));
        assert!(!carries_move_features(&plain));
        // The `0*G` term changes no choice either.
        assert_eq!(strip(&featured), plain);
        let text = bank_csv(&featured);
        assert!(text.starts_with(&bank_header(true)), "{}", &text[..200]);
        assert_eq!(parse_bank(&text, "b.csv").unwrap(), featured);
    }

    #[test]
    fn a_game_this_process_cannot_play_is_refused_by_name() {
        let with = |fitness: &str| {
            let text = format!(
                r#"(name: "bank", seed: 3, strategy: (mu: 1, lambda: 1, generations: 1),
                    noise: (samples: 2), fitness: {fitness})"#
            );
            EvolveSpec::from_ron(&text, "bank.ron").unwrap()
        };
        let open_spiel = with(
            r#"Games(game: OpenSpiel(name: "connect_four"), candidate: (sims: 20),
                baseline: Random, score: WinRate)"#,
        );
        let err = record_bank(&open_spiel, 10).unwrap_err();
        assert!(
            err.starts_with("cannot record a bank of OpenSpiel's connect_four here:")
                && err.contains("python -m evomcts"),
            "{err}"
        );
        let err = record_bank(&with("Bandit()"), 10).unwrap_err();
        assert!(err.contains("needs games fitness"), "{err}");
    }

    #[test]
    fn the_columns_are_distinct_and_the_features_come_last() {
        let header = bank_header(true);
        let names: Vec<&str> = std::iter::once("set")
            .chain(columns(true).map(|(_, c)| c))
            .collect();
        assert_eq!(names.join(","), header);
        let distinct: std::collections::BTreeSet<&&str> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{header}");
        assert!(header.starts_with(&format!("{},", bank_header(false))));
        assert!(header.ends_with(",turn"), "{header}");
        assert_eq!(
            names.len(),
            1 + bank_terminals().count() + Terminal::MOVE_FEATURES.len()
        );
    }

    #[test]
    fn a_damaged_bank_is_reported_with_its_line() {
        let mut bank = SiblingSets::new();
        let x = SelectionInputs::new(0.5, 3.0, 1.0, 0.1);
        bank.push_set([x, x]);
        bank.push_set([x]);
        let text = bank_csv(&bank);
        assert_eq!(parse_bank(&text, "b.csv").unwrap(), bank);
        for (damaged, line) in [
            (text.replace("\n1,", "\n2,"), 4),
            (text.replacen("0.5", "half", 1), 2),
            (text.replacen(",3,", ",", 1), 2),
            (text.replace("set,", "sets,"), 1),
        ] {
            let err = parse_bank(&damaged, "b.csv").unwrap_err().to_string();
            assert!(err.starts_with(&format!("b.csv:{line}:")), "{err}");
        }
        // With features: a row short of one is named too.
        let mut y = x;
        y.features[6] = 0.25;
        bank.push_set([y, x]);
        let text = bank_csv(&bank);
        assert_eq!(parse_bank(&text, "b.csv").unwrap(), bank);
        let err = parse_bank(&text.replacen(",0.25", "", 1), "b.csv")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("b.csv:5:"), "{err}");
    }
}
