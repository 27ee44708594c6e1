//! `portfolio.md`: the dataset, the matrix at each budget, what the champions share, and the
//! method, as tables a reader can paste.

use super::outputs::{dataset, matrix_cells, p_shown, GameResult, MatrixColumn};
use super::shared::{Correlation, SharedItem};
use super::PortfolioSpec;

pub fn markdown(
    spec: &PortfolioSpec,
    games: &[GameResult],
    columns: &[MatrixColumn],
    items: &[SharedItem],
    rhos: &[Correlation],
    general: Option<&super::general::GeneralResult>,
) -> String {
    let mut text = format!("# Portfolio `{}`\n\n", spec.name);
    if !spec.description.is_empty() {
        text.push_str(&format!("{}\n\n", spec.description));
    }
    text.push_str(&format!(
        "{} of {} studies finished, {} of {} matrix columns. Master seed {}, budgets {:?}.\n\n",
        games.len(),
        spec.games.len(),
        columns.len(),
        if spec.matrix.games > 0 {
            spec.games.len()
        } else {
            0
        },
        spec.seed,
        spec.budgets()
    ));
    text.push_str(&dataset_table(games));
    text.push_str(&matrix_tables(games, columns));
    text.push_str(&super::general::general_markdown(spec, general));
    text.push_str(&shared_tables(items, rhos));
    text.push_str(&method(spec, games, columns));
    text
}

fn dataset_table(games: &[GameResult]) -> String {
    let mut text = String::from("## Where does the evolved champion beat tuned UCT?\n\n| game | simulations | chance | branching | length | C_E: start → tuned; played | champion (simplified) | W-D-L | win rate [95% Wilson] | score difference [95% CI] | Wilcoxon p | Holm p | SPRT | games: tune / evolve / validate |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (g, r, holm) in dataset(games) {
        let v = &r.validation;
        text.push_str(&format!(
            "| {} | {} | {} | {:.1} | {:.1} | {} → {}; {} | `{}` | {} | {} | {} | {} / {} / {} |\n",
            g.label,
            r.budget,
            if g.properties.chance { "yes" } else { "no" },
            g.properties.branching,
            g.properties.length,
            evomcts_records::escape::number(r.c_e_start),
            evomcts_records::escape::number(r.c_e_tuned),
            evomcts_records::escape::number(r.c_e),
            r.simplified,
            v.markdown_cells(),
            p_shown(holm),
            if r.sprt_decision.is_empty() {
                "not run"
            } else {
                &r.sprt_decision
            },
            r.games[0],
            r.games[1],
            r.games[2],
        ));
    }
    text.push('\n');
    text
}

fn matrix_tables(games: &[GameResult], columns: &[MatrixColumn]) -> String {
    if columns.is_empty() {
        return "## The generalisation matrix\n\nNot played yet.\n\n".into();
    }
    let cells = matrix_cells(games, columns);
    let mut budgets: Vec<u32> = cells.iter().map(|(c, _)| c.budget).collect();
    budgets.dedup();
    let mut text = String::from("## The generalisation matrix\n\nEach row's champion played on each column's game at that game's played C_E, against its UCT at that constant: the champion's win rate (draws count one half). The diagonal is each game's own validation. `*`: Holm-adjusted p < 0.05 across the off-diagonal cells (on the diagonal: the dataset's Holm p).\n\n");
    for budget in budgets {
        let at: Vec<_> = cells.iter().filter(|(c, _)| c.budget == budget).collect();
        let labels: Vec<&str> = games.iter().map(|g| g.label.as_str()).collect();
        text.push_str(&format!(
            "### {budget} simulations\n\n| champion of ↓ on → |"
        ));
        for l in &labels {
            text.push_str(&format!(" {l} |"));
        }
        text.push_str("\n|---|");
        text.push_str(&"---|".repeat(labels.len()));
        text.push('\n');
        let holm_diag: Vec<(String, f64)> = dataset(games)
            .into_iter()
            .filter(|(_, r, _)| r.budget == budget)
            .map(|(g, _, h)| (g.label.clone(), h))
            .collect();
        for source in &labels {
            text.push_str(&format!("| {source} |"));
            for target in &labels {
                let cell = at
                    .iter()
                    .find(|(c, _)| c.source == *source && c.target == *target);
                let shown = match cell {
                    Some((c, holm)) => {
                        let h = holm.unwrap_or_else(|| {
                            holm_diag
                                .iter()
                                .find(|(l, _)| l == source)
                                .map_or(1.0, |(_, h)| *h)
                        });
                        format!(
                            "{:.2}{}",
                            c.validation.win_rate,
                            if h < 0.05 { "*" } else { "" }
                        )
                    }
                    None => "·".into(),
                };
                text.push_str(&format!(" {shown} |"));
            }
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

fn shared_tables(items: &[SharedItem], rhos: &[Correlation]) -> String {
    let mut text = String::from("## What the champions share\n\n| simulations | kind | item | champions holding it | which |\n|---|---|---|---|---|\n");
    for s in items {
        text.push_str(&format!(
            "| {} | {} | `{}` | {} of {} | {} |\n",
            s.budget,
            s.kind,
            s.item,
            s.count,
            s.champions,
            s.labels.join(", ")
        ));
    }
    text.push_str("\nSpearman's rank correlation, across the games, between a terminal's presence in the champion and a property of the game (empty where one side is the same for every game):\n\n| simulations | terminal | chance | branching | length | games |\n|---|---|---|---|---|---|\n");
    let mut i = 0;
    while i < rhos.len() {
        let row = &rhos[i..(i + 3).min(rhos.len())];
        let shown = |c: &Correlation| c.rho.map_or(String::new(), |r| format!("{r:+.2}"));
        text.push_str(&format!(
            "| {} | `{}` | {} |\n",
            row[0].budget,
            row[0].terminal,
            row.iter()
                .map(shown)
                .chain(std::iter::once(row[0].n.to_string()))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
        i += 3;
    }
    text.push('\n');
    text
}

fn method(spec: &PortfolioSpec, games: &[GameResult], columns: &[MatrixColumn]) -> String {
    let family = dataset(games).len();
    let cells: usize = columns.iter().map(|c| c.cells.len()).sum();
    format!(
        "## Method\n\nEach game's study (docs/study.md) tunes UCT's C_E by SPSA on sweep sequences, evolves a formula seeded with UCT against UCT at the played constant, and validates the champion against it on validation sequences, which neither tuning nor evolution plays, both seatings, stopped by the SPRT or the cap; its folder is `studies/LABEL`. Holm's adjustment runs over the {family} validations of the dataset as one family. The matrix plays each champion on every other game ({} games a cell: the first {} validation sequences of that game, both seatings, fixed-N), Holm over its {cells} off-diagonal cells as one family; its cells' folders are `matrix/sims-B/TARGET/SOURCE`. A game's properties come from {} random games from its start (the games' own random rollout): whether a chance event occurred, the mean legal moves at a decision, the mean decisions per game. Shared items are read from the simplified champions; sub-expressions are compared with their constants written `k`.\n",
        spec.matrix.games,
        spec.matrix.games / 2,
        super::properties::PROPERTY_GAMES,
    )
}
