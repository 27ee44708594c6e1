//! The plain data of a game: rules, placements and moves, laid tiles, what a reveal did,
//! and the errors of illegal play. No behaviour beyond formatting and small accessors.

use super::tiles::TileKind;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MEEPLES_PER_PLAYER: u8 = 7;

/// What happens to a drawn tile that fits nowhere.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unplaceable {
    /// Official rule: the tile leaves the game and the same player draws again.
    #[default]
    Discard,
    /// Ameneyro et al.: the tile goes back under the stack.
    BottomOfStack,
}

/// Rule options. The defaults are the current official rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    pub unplaceable: Unplaceable,
    /// First-edition rule of Müller's engine: a completed city of two tiles scores 1 per tile
    /// and pennant instead of 2.
    pub two_tile_city_scores_two: bool,
}

/// Where a tile goes, without the meeple choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub x: i8,
    pub y: i8,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// A complete turn: the drawn tile's placement and the meeple choice (a segment index of the
/// tile's definition, or none).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub x: i8,
    pub y: i8,
    pub rotation: u8,
    pub meeple: Option<u8>,
}

impl Move {
    pub fn placement(self) -> Placement {
        Placement {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
        }
    }

    pub fn with_meeple(p: Placement, meeple: Option<u8>) -> Move {
        Move {
            x: p.x,
            y: p.y,
            rotation: p.rotation,
            meeple,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{}) r{}", self.x, self.y, self.rotation)?;
        match self.meeple {
            Some(s) => write!(f, " meeple@{s}"),
            None => write!(f, " no meeple"),
        }
    }
}

/// A tile on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    pub kind: TileKind,
    pub x: i8,
    pub y: i8,
    pub rotation: u8,
    /// The meeple still standing on this tile: (segment, player).
    pub meeple: Option<(u8, u8)>,
}

/// The outcome of revealing a drawn tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// The tile fits somewhere: the player to move now chooses a move.
    Ready,
    /// It fits nowhere and left the game; the same player draws again.
    Discarded,
    /// It fits nowhere and went back under the stack (bottom-of-stack variant).
    ReturnedToBottom,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over")]
    GameOver,
    #[error("a tile is already drawn and waits to be placed")]
    AlreadyDrawn,
    #[error("no tile has been drawn")]
    NothingDrawn,
    #[error("no tile of type {0} is hidden")]
    NotHidden(TileKind),
    #[error("the record has fewer moves than placeable draws")]
    MovesRunOut,
    #[error("illegal move {mv} for tile {tile}: {why}")]
    IllegalMove {
        mv: Move,
        tile: TileKind,
        why: &'static str,
    },
    #[error(
        "the replayed game gives {replayed}, but the record states {recorded} (field `{field}`)"
    )]
    Stated {
        field: &'static str,
        replayed: String,
        recorded: String,
    },
}
