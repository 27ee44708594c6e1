//! Development aid until `evomcts oracle` exists: prints seeded random traces of a native game
//! as JSON lines for python/tests/oracle_compare.py.
//!
//!     cargo run -q --release -p evomcts-games --example oracle_trace -- connect_four 1000 1 > t.jsonl
//!     python python/tests/oracle_compare.py t.jsonl

use evomcts_games::backgammon::{BackgammonRules, BackgammonState};
use evomcts_games::connect_four::ConnectFourState;
use evomcts_games::maedn::{MaednRules, MaednState};
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.get(1).map_or(1000, |a| a.parse().unwrap());
    let seed: u64 = args.get(2).map_or(1, |a| a.parse().unwrap());
    match args.first().map(String::as_str) {
        Some("backgammon") => print_traces(BackgammonState::default(), n, seed),
        Some("backgammon_100_turns") => print_traces(
            BackgammonState::new(BackgammonRules::new(100).unwrap()).unwrap(),
            n,
            seed,
        ),
        Some("connect_four") => print_traces(ConnectFourState::new(), n, seed),
        Some("maedn") => print_traces(MaednState::new(MaednRules::new(true)), n, seed),
        Some("maedn_side_by_side") => {
            print_traces(MaednState::new(MaednRules::new(false)), n, seed)
        }
        other => {
            eprintln!("unknown game {other:?}");
            std::process::exit(2)
        }
    }
}
