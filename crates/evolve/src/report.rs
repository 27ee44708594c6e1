//! What a person reads in a run's folder besides the generation files, all derived from
//! the generation files alone (rewritten after every generation, so a resumed run writes
//! the same bytes as an uninterrupted one):
//!
//! - `logbook.csv`: one row per generation: best and mean fitness of the candidates
//!   evaluated, the champion with its 95% interval, the reference, samples and games spent,
//!   and what functional hashing counted and saved (empty cells when it was off);
//! - `hall_of_fame.csv`: the best distinct formulas (distinct by canonical form) of the whole
//!   run, ranked by the lower end of their 95% interval, so a lucky estimate on few samples
//!   does not rank first;
//! - `lineage.dot` and `lineage.svg`: the family tree of the champion and the hall of fame,
//!   back to the seed formula, built as a petgraph graph; the DOT comes from petgraph, the SVG
//!   is drawn here (a lineage is a small tree: one layer per generation of descent).

use super::fitness::Estimate;
use super::population::{read_generations, write_atomically, Generation, Member, PopulationError};
// A fitness that is not finite (a generation with nothing ranked) is left empty rather than
// written as `inf`, which CSV readers take for text.
use evomcts_formula::Formula;
use evomcts_records::escape::csv_number as number;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::BTreeMap;
use std::path::Path;

pub const LOGBOOK: &str = "logbook.csv";
pub const HALL_OF_FAME: &str = "hall_of_fame.csv";
/// The header of `logbook.csv`.
pub const LOGBOOK_HEADER: &str = "generation,best,mean,champion_id,champion_mean,champion_low,champion_high,champion_samples,reference_mean,reference_low,reference_high,samples_spent,games_spent,games_total,dropped,exact_duplicates,fingerprint_duplicates,new_candidates,games_saved,games_inherited,champion_formula";
/// The header of `hall_of_fame.csv`.
pub const HALL_OF_FAME_HEADER: &str = "rank,id,born,mean,low,high,samples,size,formula";
pub const LINEAGE_DOT: &str = "lineage.dot";
pub const LINEAGE_SVG: &str = "lineage.svg";
/// Formulas kept in the hall of fame.
pub const HALL_SIZE: usize = 10;

/// Samples spent in each generation: the differences of the running totals.
fn spent_per_generation(gens: &[Generation]) -> Vec<u64> {
    let mut previous = 0;
    gens.iter()
        .map(|g| {
            let spent = g.samples_spent.saturating_sub(previous);
            previous = g.samples_spent;
            spent
        })
        .collect()
}

pub(crate) fn csv_text(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The logbook: one CSV row per generation. `games_per_sample` is 2 for Carcassonne (both
/// seatings of a tile sequence) and 1 for the bandit (one run).
pub fn logbook_csv(gens: &[Generation], games_per_sample: u64) -> String {
    let mut out = format!("{LOGBOOK_HEADER}\n");
    for (g, spent) in gens.iter().zip(spent_per_generation(gens)) {
        let (c, r) = (&g.champion.fitness, &g.reference.fitness);
        // Empty when the run did not hash: nothing was counted.
        let hashing = g.hashing.map_or_else(
            || ",,,,".to_string(),
            |h| {
                format!(
                    "{},{},{},{},{}",
                    h.exact_duplicates,
                    h.fingerprint_duplicates,
                    h.new_candidates,
                    h.samples_saved * games_per_sample,
                    h.samples_inherited * games_per_sample
                )
            },
        );
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            g.generation,
            number(g.best),
            number(g.mean),
            g.champion.id,
            number(c.mean),
            number(c.low),
            number(c.high),
            c.samples,
            number(r.mean),
            number(r.low),
            number(r.high),
            spent,
            spent * games_per_sample,
            g.samples_spent * games_per_sample,
            g.dropped,
            hashing,
            csv_text(&g.champion.formula.to_string()),
        ));
    }
    out
}

/// Every individual of the run once, with its latest (most sampled) estimate, by id.
pub fn all_members(gens: &[Generation]) -> BTreeMap<usize, Member> {
    let mut members: BTreeMap<usize, Member> = BTreeMap::new();
    for g in gens {
        for m in g
            .offspring
            .iter()
            .chain(&g.parents)
            .chain([&g.champion, &g.reference])
        {
            match members.get(&m.id) {
                Some(old) if old.fitness.samples >= m.fitness.samples => {}
                _ => {
                    members.insert(m.id, m.clone());
                }
            }
        }
    }
    members
}

/// The best `size` distinct formulas (by canonical form) of the run, best first by the lower
/// end of the 95% interval; for each form, its most sampled individual (the earliest born
/// on ties). The seed formula (the reference) takes part.
pub fn hall_of_fame(gens: &[Generation], size: usize) -> Vec<Member> {
    let mut by_form: BTreeMap<String, Member> = BTreeMap::new();
    for m in all_members(gens).into_values() {
        let form = m.formula.canonical().to_string();
        match by_form.get(&form) {
            Some(old) if old.fitness.samples >= m.fitness.samples => {}
            _ => {
                by_form.insert(form, m);
            }
        }
    }
    let mut hall: Vec<Member> = by_form.into_values().collect();
    hall.sort_by(|a, b| {
        b.fitness
            .lower_bound()
            .total_cmp(&a.fitness.lower_bound())
            .then(a.id.cmp(&b.id))
    });
    hall.truncate(size);
    hall
}

pub fn hall_of_fame_csv(hall: &[Member]) -> String {
    let mut out = format!("{HALL_OF_FAME_HEADER}\n");
    for (i, m) in hall.iter().enumerate() {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            i + 1,
            m.id,
            m.born,
            estimate_cells(&m.fitness),
            m.size,
            csv_text(&m.formula.to_string()),
        ));
    }
    out
}

/// An estimate as four CSV cells: mean, low, high, samples.
pub(crate) fn estimate_cells(e: &Estimate) -> String {
    format!(
        "{},{},{},{}",
        number(e.mean),
        number(e.low),
        number(e.high),
        e.samples
    )
}

/// One individual in the lineage graph.
#[derive(Clone, Debug, PartialEq)]
pub struct LineageNode {
    pub id: usize,
    pub born: usize,
    pub formula: Formula,
    pub fitness: Estimate,
    pub champion: bool,
    pub in_hall: bool,
}

impl std::fmt::Display for LineageNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "#{} (gen {}){}\n{}\n{}",
            self.id,
            self.born,
            if self.champion { " champion" } else { "" },
            self.formula,
            self.fitness
        )
    }
}

/// An edge of the lineage: parent to child by one mutation (unlabelled in the DOT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descent;

impl std::fmt::Display for Descent {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

/// The family tree of the last generation's champion and the hall of fame: each of them and
/// all its ancestors, with an edge from parent to child.
pub fn lineage(gens: &[Generation], hall: &[Member]) -> DiGraph<LineageNode, Descent> {
    let members = all_members(gens);
    let champion = gens.last().map(|g| g.champion.id);
    let hall_ids: Vec<usize> = hall.iter().map(|m| m.id).collect();
    let mut graph = DiGraph::new();
    let mut index: BTreeMap<usize, NodeIndex> = BTreeMap::new();
    let starts = champion.into_iter().chain(hall_ids.iter().copied());
    // Collect every id on the way up first, then add nodes in id order (parents before
    // children), so the graph's node order does not depend on the order of the walk.
    let mut ids = std::collections::BTreeSet::new();
    for start in starts {
        let mut id = Some(start);
        while let Some(i) = id {
            if !ids.insert(i) {
                break;
            }
            id = members.get(&i).and_then(|m| m.parent);
        }
    }
    for &i in &ids {
        let Some(m) = members.get(&i) else { continue };
        let node = graph.add_node(LineageNode {
            id: m.id,
            born: m.born,
            formula: m.formula.clone(),
            fitness: m.fitness,
            champion: Some(m.id) == champion,
            in_hall: hall_ids.contains(&m.id),
        });
        index.insert(i, node);
    }
    for &i in &ids {
        if let (Some(child), Some(parent)) = (
            index.get(&i),
            members
                .get(&i)
                .and_then(|m| m.parent)
                .and_then(|p| index.get(&p)),
        ) {
            graph.add_edge(*parent, *child, Descent);
        }
    }
    graph
}

pub fn lineage_dot(graph: &DiGraph<LineageNode, Descent>) -> String {
    use petgraph::dot::{Config, Dot};
    let attrs = |_: &DiGraph<LineageNode, Descent>, (_, n): (NodeIndex, &LineageNode)| {
        let mut a = String::from("shape=box, fontname=\"monospace\"");
        if n.champion {
            a.push_str(", penwidth=3, color=\"#b03030\"");
        } else if n.in_hall {
            a.push_str(", color=\"#3060b0\"");
        }
        a
    };
    format!(
        "{}",
        Dot::with_attr_getters(graph, &[Config::EdgeNoLabel], &|_, _| String::new(), &attrs)
    )
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

/// The lineage drawn as SVG: one row per depth of descent from the root, leaves spread
/// left to right in depth-first order, each parent centred over its children.
pub fn lineage_svg(graph: &DiGraph<LineageNode, Descent>) -> String {
    use petgraph::Direction;
    const BOX_W: f64 = 340.0;
    const BOX_H: f64 = 58.0;
    const GAP_X: f64 = 20.0;
    const GAP_Y: f64 = 34.0;
    const CHARS: usize = 46;
    let mut children: Vec<Vec<NodeIndex>> = vec![Vec::new(); graph.node_count()];
    for n in graph.node_indices() {
        let mut c: Vec<NodeIndex> = graph.neighbors_directed(n, Direction::Outgoing).collect();
        c.sort_by_key(|&i| graph[i].id);
        children[n.index()] = c;
    }
    let mut roots: Vec<NodeIndex> = graph
        .node_indices()
        .filter(|&n| {
            graph
                .neighbors_directed(n, Direction::Incoming)
                .next()
                .is_none()
        })
        .collect();
    roots.sort_by_key(|&i| graph[i].id);
    let mut pos = vec![(0.0f64, 0usize); graph.node_count()];
    let mut next_leaf = 0usize;
    let mut max_depth = 0usize;
    fn place(
        n: NodeIndex,
        depth: usize,
        children: &[Vec<NodeIndex>],
        pos: &mut [(f64, usize)],
        next_leaf: &mut usize,
        max_depth: &mut usize,
    ) -> f64 {
        *max_depth = (*max_depth).max(depth);
        let x = if children[n.index()].is_empty() {
            let x = *next_leaf as f64;
            *next_leaf += 1;
            x
        } else {
            let xs: Vec<f64> = children[n.index()]
                .iter()
                .map(|&c| place(c, depth + 1, children, pos, next_leaf, max_depth))
                .collect();
            (xs[0] + xs[xs.len() - 1]) / 2.0
        };
        pos[n.index()] = (x, depth);
        x
    }
    for &r in &roots {
        place(r, 0, &children, &mut pos, &mut next_leaf, &mut max_depth);
    }
    let width = next_leaf.max(1) as f64 * (BOX_W + GAP_X) + GAP_X;
    let height = (max_depth + 1) as f64 * (BOX_H + GAP_Y) + GAP_Y;
    let corner = |n: NodeIndex| {
        let (x, d) = pos[n.index()];
        (
            GAP_X + x * (BOX_W + GAP_X),
            GAP_Y + d as f64 * (BOX_H + GAP_Y),
        )
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for e in graph.edge_indices() {
        let (a, b) = graph.edge_endpoints(e).expect("an edge has ends");
        let (ax, ay) = corner(a);
        let (bx, by) = corner(b);
        out.push_str(&format!(
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#888\" stroke-width=\"1.5\"/>\n",
            ax + BOX_W / 2.0,
            ay + BOX_H,
            bx + BOX_W / 2.0,
            by
        ));
    }
    for n in graph.node_indices() {
        let node = &graph[n];
        let (x, y) = corner(n);
        let (stroke, width) = if node.champion {
            ("#b03030", 3.0)
        } else if node.in_hall {
            ("#3060b0", 2.0)
        } else {
            ("#444", 1.0)
        };
        let formula = node.formula.to_string();
        out.push_str(&format!(
            "<g><title>{}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"4\" fill=\"#fafafa\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>\n",
            xml(&formula)
        ));
        let lines = [
            format!(
                "#{} (gen {}){}",
                node.id,
                node.born,
                if node.champion { " champion" } else { "" }
            ),
            shorten(&formula, CHARS),
            format!("{}", node.fitness),
        ];
        for (i, line) in lines.iter().enumerate() {
            out.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>\n",
                x + 8.0,
                y + 16.0 + 16.0 * i as f64,
                xml(line)
            ));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// Rewrites the logbook, hall of fame and lineage of the run in `dir` from its generation
/// files.
pub fn write_reports(dir: &Path, games_per_sample: u64) -> Result<(), PopulationError> {
    write_reports_of(dir, &read_generations(dir)?, games_per_sample)
}

/// [`write_reports`] from the generations in hand: `gens` must be every generation of the run
/// in `dir`, in order, as written; the files are then the same bytes as a rebuild from disk
/// (tested), without reading every generation file back after each generation.
pub fn write_reports_of(
    dir: &Path,
    gens: &[Generation],
    games_per_sample: u64,
) -> Result<(), PopulationError> {
    if gens.is_empty() {
        return Ok(());
    }
    write_atomically(&dir.join(LOGBOOK), &logbook_csv(gens, games_per_sample))?;
    let hall = hall_of_fame(gens, HALL_SIZE);
    write_atomically(&dir.join(HALL_OF_FAME), &hall_of_fame_csv(&hall))?;
    let graph = lineage(gens, &hall);
    write_atomically(&dir.join(LINEAGE_DOT), &lineage_dot(&graph))?;
    write_atomically(&dir.join(LINEAGE_SVG), &lineage_svg(&graph))
}
