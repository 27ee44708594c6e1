//! What several games' bitboards share: the `k`-th set bit, by which their random players pick
//! a legal move without listing the moves, and the scores of a game won by one player.

/// The index of the `k`-th (from 0) set bit of `bits`, which has more than `k` set bits:
/// whole bytes skipped by their counts, then the last byte's lower bits cleared one by one.
pub(crate) fn nth_set_bit(mut bits: u64, mut k: u32) -> u32 {
    debug_assert!(k < bits.count_ones(), "fewer set bits than asked for");
    let mut offset = 0;
    loop {
        let byte = (bits & 0xFF).count_ones();
        if k < byte {
            break;
        }
        k -= byte;
        bits >>= 8;
        offset += 8;
    }
    for _ in 0..k {
        bits &= bits - 1;
    }
    offset + bits.trailing_zeros()
}

/// The scores of a win-loss game: 1 for the winner and 0 for the loser, 0 each while the game
/// goes on or when it is drawn.
pub(crate) fn win_loss_scores(winner: Option<u8>) -> [i32; 2] {
    match winner {
        Some(0) => [1, 0],
        Some(_) => [0, 1],
        None => [0, 0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set bit of a few words, found by its rank, against the plain scan.
    #[test]
    fn the_kth_set_bit_is_the_scans() {
        for bits in [
            1u64,
            0x8000_0000_0000_0000,
            0xF0F0_0000_0101_8001,
            u64::MAX,
            0x00FF_0000_0000_FF00,
        ] {
            let scanned: Vec<u32> = (0..64).filter(|i| bits >> i & 1 == 1).collect();
            for (k, &at) in scanned.iter().enumerate() {
                assert_eq!(nth_set_bit(bits, k as u32), at, "{bits:#x}, k = {k}");
            }
        }
    }

    #[test]
    fn a_winner_scores_one() {
        assert_eq!(win_loss_scores(Some(0)), [1, 0]);
        assert_eq!(win_loss_scores(Some(1)), [0, 1]);
        assert_eq!(win_loss_scores(None), [0, 0]);
    }
}
