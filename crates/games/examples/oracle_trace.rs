//! Development aid until `evomcts oracle` exists: prints seeded random traces of a native game
//! as JSON lines for python/tests/oracle_compare.py.
//!
//!     cargo run -q --release -p evomcts-games --example oracle_trace -- connect_four 1000 1 > t.jsonl
//!     python python/tests/oracle_compare.py t.jsonl

use evomcts_games::breakthrough::{BreakthroughRules, BreakthroughState};
use evomcts_games::checkers::{CheckersRules, CheckersState};
use evomcts_games::clobber::{ClobberRules, ClobberState};
use evomcts_games::connect_four::ConnectFourState;
use evomcts_games::open_spiel_twin::{trace, OpenSpielTwin};

fn print_traces<G: OpenSpielTwin>(start: G, n: u64, seed: u64) {
    println!("{}", serde_json::json!({ "game": start.open_spiel_name() }));
    for i in 0..n {
        let t = trace(&start, seed.wrapping_mul(1_000_003).wrapping_add(i)).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        println!("{}", serde_json::to_string(&t).unwrap());
    }
}

fn breakthrough(rows: u8, columns: u8) -> BreakthroughState {
    BreakthroughState::new(BreakthroughRules::new(rows, columns).unwrap()).unwrap()
}

fn checkers(rows: u8, columns: u8) -> CheckersState {
    CheckersState::new(CheckersRules::new(rows, columns).unwrap()).unwrap()
}

fn clobber(rows: u8, columns: u8) -> ClobberState {
    ClobberState::new(ClobberRules::new(rows, columns).unwrap()).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.get(1).map_or(1000, |a| a.parse().unwrap());
    let seed: u64 = args.get(2).map_or(1, |a| a.parse().unwrap());
    match args.first().map(String::as_str) {
        Some("breakthrough") => print_traces(breakthrough(8, 8), n, seed),
        Some("breakthrough6") => print_traces(breakthrough(6, 6), n, seed),
        Some("breakthrough3x5") => print_traces(breakthrough(3, 5), n, seed),
        Some("checkers") => print_traces(checkers(8, 8), n, seed),
        Some("checkers8x6") => print_traces(checkers(8, 6), n, seed),
        Some("checkers7") => print_traces(checkers(7, 7), n, seed),
        Some("clobber") => print_traces(clobber(5, 6), n, seed),
        Some("clobber4") => print_traces(clobber(4, 4), n, seed),
        Some("clobber8") => print_traces(clobber(8, 8), n, seed),
        Some("connect_four") => print_traces(ConnectFourState::new(), n, seed),
        other => {
            eprintln!("unknown game {other:?}");
            std::process::exit(2)
        }
    }
}
