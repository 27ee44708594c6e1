//! The cost of MCTS, ES-MCTS and ES-p-MCTS decisions on one thread (`evomcts bench
//! search`), on positions from the middle of random games, plus the raw rollout speed and the
//! arena's bytes per node, on Carcassonne or on any game a spec can name. Carcassonne's
//! positions are its own sampler's (turns 20 to 49); another game's are one decision from the
//! middle third of each of a seeded series of random games. Decision times are medians over
//! positions; each position's time is itself the median of `repeats` runs, which damps the
//! noise of a shared machine. The `*_cpu_ms` figures (Linux only) are the mean on-CPU time of
//! the thread per decision, which other processes competing for the cores do not inflate.

use std::time::Instant;

use crate::{median, thread_cpu_ns};
use anyhow::{anyhow, bail, Result};
use evomcts_arena::{GameChoice, GameTask};
use evomcts_games::carcassonne::sample_positions;
use evomcts_games::{Game, GameRng};
use evomcts_search::mcts::{EsMode, MctsController, MctsSettings, Selection};
use rand::{Rng, SeedableRng};

/// What `evomcts bench search` times (its options, checked by the command line).
pub struct SearchBench {
    /// Positions sampled from the middle of random games.
    pub positions: usize,
    /// Seed of the positions and of the controllers.
    pub seed: u64,
    /// Runs per position and controller; the position's time is their median.
    pub repeats: usize,
    /// MCTS simulations per decision.
    pub sims: u32,
    /// Also time RAVE and Thompson sampling decisions.
    pub all_policies: bool,
    /// Time only this controller (its `--only` name).
    pub only: Option<String>,
    /// The game [default: Carcassonne].
    pub game: Option<GameChoice>,
}

/// The benchmark's report, one JSON object.
pub fn run(args: &SearchBench) -> Result<serde_json::Value> {
    let game = args.game.unwrap_or(GameChoice::Carcassonne);
    if game.is_carcassonne() {
        let positions = sample_positions(args.positions, args.seed, 20..50);
        bench_positions(args, &positions, "20..50")
    } else {
        game.dispatch(OnGame(args))
            .map_err(|e| anyhow!("--game {}: {e}", game.label()))?
    }
}

struct Timing {
    /// Median over positions of the per-position median wall time, ms.
    wall_ms: f64,
    /// Mean on-CPU time per timed decision, ms (None off Linux).
    cpu_ms: Option<f64>,
    nodes: f64,
    bytes_per_node: usize,
}

fn time_decisions<G: Game>(
    settings: &MctsSettings,
    positions: &[G],
    seed: u64,
    repeats: usize,
) -> Result<Timing> {
    let mut controller = MctsController::<G>::new(settings, seed)?;
    let mut per_position = Vec::with_capacity(positions.len());
    let mut nodes = Vec::with_capacity(positions.len());
    let mut bytes_per_node = 0;
    // One untimed decision grows the buffers, as in a game.
    controller.try_choose_move(&positions[0])?;
    let cpu_start = thread_cpu_ns();
    for state in positions {
        let mut runs = Vec::with_capacity(repeats);
        for _ in 0..repeats {
            let start = Instant::now();
            std::hint::black_box(controller.try_choose_move(state)?);
            runs.push(start.elapsed().as_secs_f64() * 1e3);
        }
        per_position.push(median(&mut runs));
        nodes.push(controller.last_decision().nodes as f64);
        bytes_per_node = controller.last_decision().bytes_per_node;
    }
    let decisions = (positions.len() * repeats) as f64;
    let cpu_ms = cpu_start
        .zip(thread_cpu_ns())
        .map(|(start, end)| end.saturating_sub(start) as f64 / 1e6 / decisions);
    Ok(Timing {
        wall_ms: median(&mut per_position),
        cpu_ms,
        nodes: median(&mut nodes),
        bytes_per_node,
    })
}

/// The most random games played for each position [`middle_positions`] is asked for.
const MAX_GAMES_PER_POSITION: usize = 100;

/// The benchmark on a game other than Carcassonne, from its start state.
struct OnGame<'a>(&'a SearchBench);

impl GameTask for OnGame<'_> {
    type Output = Result<serde_json::Value>;
    fn run<G: Game>(self, start: G) -> Self::Output {
        let label = self
            .0
            .game
            .as_ref()
            .map_or_else(String::new, GameChoice::label);
        let positions = middle_positions(&start, self.0.positions, self.0.seed)
            .map_err(|e| anyhow!("{label}: {e}"))?;
        let mut report = bench_positions(self.0, &positions, "the middle third of each game")?;
        report["game"] = self.0.game.as_ref().map(GameChoice::label).into();
        Ok(report)
    }
}

/// `count` decisions from random games of the game that starts at `start`: game `i` is played
/// with random moves and sampled chance from one seeded stream, and one of its decisions is
/// drawn uniformly from the middle third of them.
/// A game none of whose first [`MAX_GAMES_PER_POSITION`] random games reaches a decision (its
/// start is over, or only chance follows it) is refused, naming the game, rather than waited on.
fn middle_positions<G: Game>(start: &G, count: usize, seed: u64) -> Result<Vec<G>> {
    if start.is_over() {
        bail!("the game is over at its start: it has no decision to search");
    }
    let mut rng = GameRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut decisions = Vec::new();
    let most = count.saturating_mul(MAX_GAMES_PER_POSITION);
    for played in 0.. {
        if out.len() == count {
            break;
        }
        if played == most {
            bail!(
                "{played} random games of the game gave {} of the {count} decisions asked for: \
                 its random games reach no decision",
                out.len()
            );
        }
        let mut state = start.clone();
        decisions.clear();
        while !state.is_over() {
            if state.at_decision() {
                decisions.push(state.clone());
                let mv = state
                    .random_move(&mut rng)
                    .ok_or_else(|| anyhow!("a decision of the game offers no move"))?;
                state.apply_move(mv)?;
            } else if state.sample_chance(&mut rng).is_none() && !state.is_over() {
                bail!("a chance event of the game sampled no outcome");
            }
        }
        let n = decisions.len();
        if n > 0 {
            out.push(decisions.swap_remove(rng.gen_range(n / 3..n - n / 3)));
        }
    }
    Ok(out)
}

/// The rollout rate and every timed search on `positions`, as the report's JSON object.
fn bench_positions<G: Game>(
    args: &SearchBench,
    positions: &[G],
    turns: &str,
) -> Result<serde_json::Value> {
    let (playouts_per_sec, playouts_per_cpu_sec) = rollout_rate(positions, args.seed);
    let mut report = serde_json::json!({
        "positions": args.positions,
        "turns": turns,
        "seed": args.seed,
        "repeats": args.repeats,
        "sims": args.sims,
        "es_sims_per_decision": 800,
        "threads": 1,
        "playouts_per_sec": playouts_per_sec.round(),
        "playouts_per_cpu_sec": playouts_per_cpu_sec,
    });
    let main = benchmarked_settings(args.sims);
    if let Some(only) = &args.only {
        if !main.iter().any(|(name, _, _)| name == only) {
            bail!(
                "--only takes mcts, es-mcts, es-p-mcts, mcts-knowledge or mcts-features, not {only}"
            );
        }
        if only == "mcts-features" && !G::OFFERS_MOVE_FEATURES {
            bail!("--only mcts-features: the game offers no move features");
        }
    }
    time_main(args, main, positions, &mut report)?;
    if args.all_policies {
        time_all_policies(args, positions, &mut report)?;
    }
    Ok(report)
}

/// Random playouts per second from the positions (wall and, where the platform tells, this
/// thread's CPU): the engine cost inside every simulation.
fn rollout_rate<G: Game>(positions: &[G], seed: u64) -> (f64, Option<f64>) {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut scratch = positions[0].clone();
    let rollouts = 2000 * positions.len().min(10);
    let cpu_start = thread_cpu_ns();
    let start = Instant::now();
    for i in 0..rollouts {
        scratch.clone_from(&positions[i % positions.len()]);
        scratch.play_out_randomly(&mut rng);
        std::hint::black_box(Game::scores(&scratch));
    }
    let playouts_per_sec = rollouts as f64 / start.elapsed().as_secs_f64();
    let playouts_per_cpu_sec = cpu_start
        .zip(thread_cpu_ns())
        .map(|(start, end)| (rollouts as f64 / (end.saturating_sub(start) as f64 / 1e9)).round());
    (playouts_per_sec, playouts_per_cpu_sec)
}

/// The benchmark's main searches, each with its `--only` name and its report key.
fn benchmarked_settings(sims: u32) -> [(&'static str, &'static str, MctsSettings); 5] {
    let mcts = MctsSettings {
        sims,
        ..MctsSettings::default()
    };
    let es_mcts = MctsSettings {
        sims,
        ..MctsSettings::es_paper(EsMode::Integrated)
    };
    let es_p_mcts = MctsSettings {
        sims,
        ..MctsSettings::es_paper(EsMode::Partial)
    };
    // UCT plus a zero-weight `H` term: the same tree as `mcts` (tested), so the difference
    // is the cost of computing the knowledge terminals.
    let mcts_knowledge = MctsSettings {
        sims,
        selection: Selection::Formula("Q + 2*C*sqrt(2*ln(N)/n) + 0*H".into()),
        ..MctsSettings::default()
    };
    // The same with every move feature read too: the cost of the features over `H` alone.
    let mcts_features = MctsSettings {
        sims,
        selection: Selection::Formula(
            "Q + 2*C*sqrt(2*ln(N)/n) + 0*(H + G + O + M + F + R + L + T)".into(),
        ),
        ..MctsSettings::default()
    };
    [
        ("mcts", "mcts_decision_ms", mcts),
        ("es-mcts", "es_mcts_decision_ms", es_mcts),
        ("es-p-mcts", "es_p_mcts_decision_ms", es_p_mcts),
        (
            "mcts-knowledge",
            "mcts_knowledge_decision_ms",
            mcts_knowledge,
        ),
        ("mcts-features", "mcts_features_decision_ms", mcts_features),
    ]
}

/// Times each main search (or the one `--only` names) into the report.
fn time_main<G: Game>(
    args: &SearchBench,
    main: [(&str, &str, MctsSettings); 5],
    positions: &[G],
    report: &mut serde_json::Value,
) -> Result<()> {
    for (name, key, settings) in main {
        if args.only.as_ref().is_some_and(|only| only != name)
            || name == "mcts-features" && !G::OFFERS_MOVE_FEATURES
        {
            continue;
        }
        let timing = time_decisions(&settings, positions, args.seed, args.repeats)?;
        report[key] = timing.wall_ms.into();
        report[key.replace("_ms", "_cpu_ms")] = timing.cpu_ms.into();
        if name == "mcts" {
            report["mcts_simulations_per_sec"] =
                (args.sims as f64 / timing.wall_ms * 1e3).round().into();
            report["mcts_nodes_median"] = timing.nodes.into();
            report["bytes_per_node"] = timing.bytes_per_node.into();
        }
    }
    Ok(())
}

/// Times RAVE, Thompson sampling and the hand-coded UCT into the report.
fn time_all_policies<G: Game>(
    args: &SearchBench,
    positions: &[G],
    report: &mut serde_json::Value,
) -> Result<()> {
    for (name, selection) in [
        ("rave_decision_ms", Selection::Rave { bias: 0.1 }),
        ("thompson_decision_ms", Selection::Thompson),
        ("thompson_reshaped_decision_ms", Selection::ThompsonReshaped),
        ("hand_coded_uct_decision_ms", Selection::HandCodedUct),
    ] {
        let settings = MctsSettings {
            sims: args.sims,
            selection,
            ..MctsSettings::default()
        };
        let timing = time_decisions(&settings, positions, args.seed, args.repeats)?;
        report[name] = timing.wall_ms.into();
        report[name.replace("_ms", "_cpu_ms")] = timing.cpu_ms.into();
        if name == "rave_decision_ms" {
            report["rave_bytes_per_node"] = timing.bytes_per_node.into();
        }
    }
    Ok(())
}
