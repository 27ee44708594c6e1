//! Star1, Star2 and Star2.5 decisions on mid-game positions of Carcassonne, one thread
//! (`evomcts bench star`): the time per decision and the nodes searched.

use anyhow::Result;
use evomcts_games::carcassonne::GameState;
use evomcts_games::Evaluation;
use evomcts_search::star::{expectimax, StarSearcher, StarSettings};
use serde_json::{json, Value};
use std::time::Instant;

/// Per-decision times (ms) and node counts of one variant.
pub struct Timings {
    millis: Vec<f64>,
    nodes: u64,
}

impl Timings {
    /// The variant's line of the report.
    pub fn report(mut self, name: &str, settings: Option<&StarSettings>) -> Value {
        self.millis.sort_by(|a, b| a.total_cmp(b));
        let n = self.millis.len();
        let total_ms: f64 = self.millis.iter().sum();
        let at = |q: f64| self.millis[((n - 1) as f64 * q).round() as usize];
        json!({
            "name": name,
            "depth": settings.map(|s| s.depth),
            "probing": settings.map(|s| s.probing),
            "lower": settings.map(|s| s.lower),
            "upper": settings.map(|s| s.upper),
            "positions": n,
            "median_ms": round3(at(0.5)),
            "mean_ms": round3(total_ms / n as f64),
            "p90_ms": round3(at(0.9)),
            "max_ms": round3(self.millis[n - 1]),
            "mean_nodes": (self.nodes as f64 / n as f64).round(),
            "nodes_per_sec": (self.nodes as f64 / (total_ms / 1000.0)).round(),
        })
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Times one search of each of `positions` (after one untimed search).
pub fn time_star(positions: &[GameState], settings: &StarSettings) -> Result<Timings> {
    let mut searcher = StarSearcher::new(settings)?;
    // One untimed search warms the pools, as in a controller that has already played.
    searcher.search(&positions[0])?;
    let mut t = Timings {
        millis: Vec::with_capacity(positions.len()),
        nodes: 0,
    };
    for state in positions {
        let start = Instant::now();
        let r = std::hint::black_box(searcher.search(state)?);
        t.millis.push(start.elapsed().as_secs_f64() * 1000.0);
        t.nodes += r.nodes;
    }
    Ok(t)
}

/// Times plain expectimax at depth 2 on each of `positions`, the unpruned baseline.
pub fn time_expectimax(positions: &[GameState], evaluation: Evaluation) -> Result<Timings> {
    let mut t = Timings {
        millis: Vec::new(),
        nodes: 0,
    };
    for state in positions {
        let start = Instant::now();
        let r = std::hint::black_box(expectimax(state, 2, evaluation)?);
        t.millis.push(start.elapsed().as_secs_f64() * 1000.0);
        t.nodes += r.nodes;
    }
    Ok(t)
}
