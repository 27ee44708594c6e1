//! `evomcts play`: one game between two random controllers, printed as a board and scores.

use anyhow::Result;
use clap::Args;
use evomcts::games::carcassonne::render::render_board;
use evomcts::games::carcassonne::{play_game, FeatureKind, Rules, Unplaceable};
use evomcts::games::RandomController;

#[derive(Args)]
pub struct PlayArgs {
    /// Seed of the tile sequence and of both random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Put an unplaceable tile back under the stack instead of discarding it.
    #[arg(long)]
    bottom_of_stack: bool,
    /// First-edition rule: a completed two-tile city scores 2.
    #[arg(long)]
    two_tile_city_scores_two: bool,
}

pub fn run(args: PlayArgs) -> Result<()> {
    let rules = Rules {
        unplaceable: if args.bottom_of_stack {
            Unplaceable::BottomOfStack
        } else {
            Unplaceable::Discard
        },
        two_tile_city_scores_two: args.two_tile_city_scores_two,
    };
    let mut first = RandomController::new(args.seed.wrapping_mul(2).wrapping_add(1));
    let mut second = RandomController::new(args.seed.wrapping_mul(2).wrapping_add(2));
    let (state, record) = play_game(rules, args.seed, [&mut first, &mut second])?;
    out!("{}", render_board(&state))?;
    outln!(
        "turns: {} + {}, discarded tiles: {}, meeples played: {} / {}",
        record.turns[0],
        record.turns[1],
        record.discards,
        record.meeples_played[0],
        record.meeples_played[1]
    )?;
    for p in 0..2 {
        let parts: Vec<String> = FeatureKind::ALL
            .iter()
            .map(|k| format!("{} {}", k.name(), record.score_by_kind[p][*k as usize]))
            .collect();
        outln!(
            "player {} final score {}: {}",
            p + 1,
            record.final_scores[p],
            parts.join(", ")
        )?;
    }
    match record.winner() {
        Some(w) => outln!("winner: player {}", w + 1)?,
        None => outln!("draw")?,
    }
    Ok(())
}
