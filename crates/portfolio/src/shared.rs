//! What the portfolio's champions share, at each budget: the terminals each uses, the
//! sub-expressions (of two nodes or more, constants written `k` so `2.1*C` and `1.9*C` are one)
//! that recur in two champions or more, all read from the simplified champions; and each
//! terminal's Spearman rank correlation, across the games, between its presence in the
//! champion and each of the games' properties (chance, branching, length).

use super::outputs::GameResult;
use evomcts_formula::{Expr, Formula};
use std::collections::{BTreeMap, BTreeSet};

/// A terminal or a sub-expression and the champions holding it.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedItem {
    pub budget: u32,
    /// `terminal` or `subexpression`.
    pub kind: &'static str,
    pub item: String,
    /// Champions that hold it.
    pub count: usize,
    /// Champions at the budget.
    pub champions: usize,
    pub labels: Vec<String>,
}

/// A terminal's rank correlation with a property across the games of a budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Correlation {
    pub budget: u32,
    pub terminal: String,
    pub property: &'static str,
    /// `None` where either side is the same for every game (no ranking to correlate).
    pub rho: Option<f64>,
    pub n: usize,
}

/// The terminals of `expr`, by symbol.
fn terminals(expr: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    expr.for_each_node(&mut |e| {
        if let Expr::Term(t) = e {
            out.insert(t.symbol().to_string());
        }
    });
    out
}

/// `expr` with every constant replaced by `k`'s stand-in, as text.
fn shape(expr: &Expr) -> String {
    fn strip(e: &Expr) -> Expr {
        match e {
            // A constant that never occurs in a formula's text stands for every constant.
            Expr::Const(_) => Expr::Const(STAND_IN),
            Expr::Term(t) => Expr::Term(*t),
            Expr::Unary(op, x) => Expr::unary(*op, strip(x)),
            Expr::Binary(op, a, b) => Expr::binary(*op, strip(a), strip(b)),
        }
    }
    Formula::new(strip(expr))
        .to_string()
        .replace(&Formula::new(Expr::Const(STAND_IN)).to_string(), "k")
}

const STAND_IN: f64 = 7777.125;

/// The sub-expressions of two nodes or more of `expr`, by shape.
fn subexpressions(expr: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    expr.for_each_node(&mut |e| {
        if e.size() >= 2 {
            out.insert(shape(e));
        }
    });
    out
}

/// The budgets of the results, in the order first met.
fn budgets(games: &[GameResult]) -> Vec<u32> {
    let mut out = Vec::new();
    for r in games.iter().flat_map(|g| &g.rows) {
        if !out.contains(&r.budget) {
            out.push(r.budget);
        }
    }
    out
}

/// (label, simplified champion) of each game at `budget`.
fn champions(games: &[GameResult], budget: u32) -> Vec<(&str, &Formula)> {
    games
        .iter()
        .filter_map(|g| {
            g.rows
                .iter()
                .find(|r| r.budget == budget)
                .map(|r| (g.label.as_str(), &r.simplified))
        })
        .collect()
}

/// Every terminal any champion uses, and every sub-expression two champions or more hold.
pub fn shared_items(games: &[GameResult]) -> Vec<SharedItem> {
    let mut out = Vec::new();
    for budget in budgets(games) {
        let champs = champions(games, budget);
        for (kind, least, of) in [
            ("terminal", 1, terminals as fn(&Expr) -> BTreeSet<String>),
            ("subexpression", 2, subexpressions),
        ] {
            let mut holders: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (label, f) in &champs {
                for item in of(f.expr()) {
                    holders.entry(item).or_default().push(label.to_string());
                }
            }
            let mut items: Vec<SharedItem> = holders
                .into_iter()
                .filter(|(_, l)| l.len() >= least)
                .map(|(item, labels)| SharedItem {
                    budget,
                    kind,
                    item,
                    count: labels.len(),
                    champions: champs.len(),
                    labels,
                })
                .collect();
            items.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.item.cmp(&b.item)));
            out.extend(items);
        }
    }
    out
}

/// Average ranks (1-based), ties sharing the mean of their ranks.
fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut out = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rho (Pearson's correlation of average ranks); `None` when either side is
/// constant or there are fewer than 3 pairs.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 3 {
        return None;
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// A property of a game by name, as a number (chance as 0 or 1).
type Property = (&'static str, fn(&GameResult) -> f64);

/// Each terminal some champion uses, against each property, at each budget.
pub fn correlations(games: &[GameResult]) -> Vec<Correlation> {
    let mut out = Vec::new();
    for budget in budgets(games) {
        let rows: Vec<(&GameResult, BTreeSet<String>)> = games
            .iter()
            .filter_map(|g| {
                g.rows
                    .iter()
                    .find(|r| r.budget == budget)
                    .map(|r| (g, terminals(r.simplified.expr())))
            })
            .collect();
        let all: BTreeSet<String> = rows.iter().flat_map(|(_, t)| t.iter().cloned()).collect();
        let properties: [Property; 3] = [
            ("chance", |g| f64::from(u8::from(g.properties.chance))),
            ("branching", |g| g.properties.branching),
            ("length", |g| g.properties.length),
        ];
        for terminal in all {
            let presence: Vec<f64> = rows
                .iter()
                .map(|(_, t)| f64::from(u8::from(t.contains(&terminal))))
                .collect();
            for (property, of) in properties {
                let values: Vec<f64> = rows.iter().map(|(g, _)| of(g)).collect();
                out.push(Correlation {
                    budget,
                    terminal: terminal.clone(),
                    property,
                    rho: spearman(&presence, &values),
                    n: rows.len(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_ranks_ties_and_refuses_constants() {
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), Some(1.0));
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
        assert_eq!(spearman(&[1.0, 1.0, 1.0], &[3.0, 2.0, 1.0]), None);
        // Ties take their mean rank: x ranks 1.5 1.5 3, y 1 2 3.
        let rho = spearman(&[0.0, 0.0, 1.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!((rho - 0.866_025_403_784_438_6).abs() < 1e-12, "{rho}");
    }

    #[test]
    fn shapes_forget_constants_and_subexpressions_need_two_nodes() {
        let a: Formula = "Q + 2.1*C*sqrt(ln(N)/n)".parse().unwrap();
        let b: Formula = "Q + 1.9*C*sqrt(ln(N)/n)".parse().unwrap();
        assert_eq!(shape(a.expr()), shape(b.expr()));
        let subs = subexpressions(a.expr());
        assert!(subs.contains("sqrt(ln(N)/n)"), "{subs:?}");
        assert!(subs.iter().all(|s| s != "Q" && s != "k"), "{subs:?}");
        assert_eq!(
            terminals(a.expr()).into_iter().collect::<Vec<_>>(),
            ["C", "N", "Q", "n"]
        );
    }
}
