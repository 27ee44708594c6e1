//! The recommendation at the end of a tuning run: a pessimistic choice among the last
//! iterates, as Nevergrad's noisy optimisers recommend a "pessimistic best" rather than the
//! luckiest point.
//!
//! The last half of the steps is cut into `blocks` blocks of consecutive steps. A block's
//! candidate is the mean of its iterates (scaled units); its value is estimated by the mean of
//! its steps' evaluations (each step's mean of its two points, which lie within c_k of the
//! iterate, so the block's evaluations estimate the value near its mean iterate), with a 95%
//! interval over the steps. The recommendation is the block with the highest lower bound
//! (mean − 1.96·se): a point that looked good because a few lucky games fell its way has a
//! wide interval and loses to one that was steadily good. Ties go to the later block.
//!
//! Guarantees: a pure function of the iterates and evaluations, so a resumed run recommends
//! what an uninterrupted one does; it plays no games.

/// One block's candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Steps `first..last` (from 0, `last` excluded).
    pub first: usize,
    pub last: usize,
    /// The mean iterate, scaled units.
    pub x: Vec<f64>,
    /// The mean of the steps' evaluations and its 95% bounds.
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// The candidates of the last half of `iterates` (the point before each step, scaled) and
/// `values` (each step's mean evaluation), and the index of the recommended one.
pub fn recommend(iterates: &[Vec<f64>], values: &[f64], blocks: usize) -> (Vec<Candidate>, usize) {
    let steps = values.len().min(iterates.len());
    let start = steps / 2;
    let span = steps - start;
    let blocks = blocks.clamp(1, span.max(1));
    let mut candidates = Vec::with_capacity(blocks);
    for b in 0..blocks {
        let first = start + b * span / blocks;
        let last = start + (b + 1) * span / blocks;
        if first == last {
            continue;
        }
        let n = (last - first) as f64;
        let dimension = iterates[first].len();
        let x: Vec<f64> = (0..dimension)
            .map(|i| iterates[first..last].iter().map(|p| p[i]).sum::<f64>() / n)
            .collect();
        let mean = values[first..last].iter().sum::<f64>() / n;
        let var = if last - first > 1 {
            values[first..last]
                .iter()
                .map(|v| (v - mean).powi(2))
                .sum::<f64>()
                / (n - 1.0)
        } else {
            0.0
        };
        let half = 1.959_963_984_540_054 * (var / n).sqrt();
        candidates.push(Candidate {
            first,
            last,
            x,
            mean,
            low: mean - half,
            high: mean + half,
        });
    }
    let mut best = 0;
    for (i, c) in candidates.iter().enumerate() {
        if c.low >= candidates[best].low {
            best = i;
        }
    }
    (candidates, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steady_block_beats_the_lucky_one() {
        // Eight steps: the last half is steps 4..8 in two blocks. Block 4..6 has a higher
        // mean (10) but a wide spread; block 6..8 a lower mean (6) and none.
        let iterates: Vec<Vec<f64>> = (0..8).map(|k| vec![k as f64 / 10.0]).collect();
        let values = [0.0, 0.0, 0.0, 0.0, 0.0, 20.0, 6.0, 6.0];
        let (candidates, best) = recommend(&iterates, &values, 2);
        assert_eq!(candidates.len(), 2);
        assert_eq!((candidates[0].first, candidates[0].last), (4, 6));
        assert!((candidates[0].x[0] - 0.45).abs() < 1e-12);
        assert_eq!(candidates[0].mean, 10.0);
        assert_eq!(best, 1);
        // With equal spreads the higher mean wins.
        let values = [0.0, 0.0, 0.0, 0.0, 9.0, 11.0, 5.0, 7.0];
        assert_eq!(recommend(&iterates, &values, 2).1, 0);
    }
}
