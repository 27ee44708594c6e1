//! Development aid until `evomcts oracle` exists: prints seeded random traces of a native game
//! as JSON lines for python/tests/oracle_compare.py.
//!
//!     cargo run -q --release -p evomcts-twins --features oracle --example oracle_trace -- connect_four 1000 1 > t.jsonl
//!     python python/tests/oracle_compare.py t.jsonl

use evomcts_games::connect_four::ConnectFourState;
use evomcts_games::open_spiel_twin::{trace, OpenSpielName, OpenSpielTwin};
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

fn print_traces<G: OpenSpielTwin>(start: G, n: u64, seed: u64) {
    let name = start.open_spiel_name();
    print_traces_as(start, name, n, seed);
}

/// The traces of `start` as OpenSpiel's game `name`: for a native game that is more than one
/// of OpenSpiel's (Gomoku is also `mnk`).
fn print_traces_as<G: OpenSpielTwin>(start: G, name: OpenSpielName, n: u64, seed: u64) {
    println!("{}", serde_json::json!({ "game": name }));
    for i in 0..n {
        let t = trace(&start, seed.wrapping_mul(1_000_003).wrapping_add(i)).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
        println!("{}", serde_json::to_string(&t).unwrap());
    }
}

/// Rules the example names, which are valid.
fn rules<R, E: std::fmt::Display>(made: Result<R, E>) -> R {
    made.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
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
        Some("dots_and_boxes") => print_traces(DotsAndBoxesState::default(), n, seed),
        // dots_and_boxes_R_C: R rows and C columns of boxes (dots_and_boxes_3_4, ...).
        Some(key) if key.starts_with("dots_and_boxes_") => {
            let sizes: Vec<u8> = key[15..].split('_').map(|x| x.parse().unwrap()).collect();
            let rules = DotsAndBoxesRules::new(sizes[0], sizes[1]).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            print_traces(DotsAndBoxesState::new(rules), n, seed)
        }
        Some("mancala") => print_traces(MancalaState::new(), n, seed),
        Some("nim") => print_traces(NimState::default(), n, seed),
        Some("nim_2_3_5_8_13_normal") => {
            let rules = NimRules::new(&[2, 3, 5, 8, 13], false).unwrap();
            print_traces(NimState::new(rules), n, seed)
        }
        Some("nim_12_misere") => {
            print_traces(NimState::new(NimRules::new(&[12], true).unwrap()), n, seed)
        }
        Some("oware") => print_traces(OwareState::default(), n, seed),
        // oware_H_S: H houses a player, S seeds a house (oware_4_3, oware_8_6, ...).
        Some(key) if key.starts_with("oware_") => {
            let sizes: Vec<u8> = key[6..].split('_').map(|x| x.parse().unwrap()).collect();
            let rules = OwareRules::new(sizes[0], sizes[1]).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            print_traces(OwareState::new(rules), n, seed)
        }
        Some("tic_tac_toe") => print_traces(TicTacToeState::new(), n, seed),
        Some("hex5") => print_traces(HexState::new(rules(HexRules::square(5))), n, seed),
        Some("hex11") => print_traces(HexState::new(HexRules::default()), n, seed),
        Some("hex3x7") => print_traces(HexState::new(rules(HexRules::new(3, 7, false))), n, seed),
        Some("hex8x4") => print_traces(HexState::new(rules(HexRules::new(8, 4, false))), n, seed),
        Some("hex5swap") => print_traces(HexState::new(rules(HexRules::new(5, 5, true))), n, seed),
        Some("y1") => print_traces(YState::new(rules(YRules::new(1))), n, seed),
        Some("y5") => print_traces(YState::new(rules(YRules::new(5))), n, seed),
        Some("y9") => print_traces(YState::new(rules(YRules::new(9))), n, seed),
        Some("y19") => print_traces(YState::new(YRules::default()), n, seed),
        Some("gomoku15") => print_traces(GomokuState::default(), n, seed),
        Some("gomoku9c4") => {
            print_traces(GomokuState::new(rules(GomokuRules::square(9, 4))), n, seed)
        }
        Some("gomoku7anti") => {
            let r = rules(GomokuRules::new(7, 7, 4, true, false));
            print_traces(GomokuState::new(r), n, seed)
        }
        Some("gomoku7wrap") => {
            let r = rules(GomokuRules::new(7, 7, 4, false, true));
            print_traces(GomokuState::new(r), n, seed)
        }
        Some("gomoku4wrap5") => {
            let r = rules(GomokuRules::new(4, 4, 5, false, true));
            print_traces(GomokuState::new(r), n, seed)
        }
        Some("gomoku3c4") => {
            print_traces(GomokuState::new(rules(GomokuRules::square(3, 4))), n, seed)
        }
        Some("mnk15") => {
            let r = GomokuRules::default();
            print_traces_as(GomokuState::new(r), r.mnk_name().unwrap(), n, seed)
        }
        Some("mnk3x4") => print_traces(
            GomokuState::new(rules(GomokuRules::new(3, 4, 3, false, false))),
            n,
            seed,
        ),
        Some("mnk6x9c4") => print_traces(
            GomokuState::new(rules(GomokuRules::new(6, 9, 4, false, false))),
            n,
            seed,
        ),
        Some("pentago") => print_traces(PentagoState::new(), n, seed),
        Some("othello") => print_traces(OthelloState::new(), n, seed),
        Some("backgammon") => print_traces(BackgammonState::default(), n, seed),
        Some("backgammon_100_turns") => print_traces(
            BackgammonState::new(BackgammonRules::new(100).unwrap()).unwrap(),
            n,
            seed,
        ),
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
