//! The logbook, hall of fame and lineage of a run match its generation files.

use evomcts::evolve::population::read_generations;
use evomcts::evolve::report::{
    all_members, hall_of_fame, write_reports, HALL_OF_FAME, HALL_SIZE, LINEAGE_DOT, LINEAGE_SVG,
    LOGBOOK,
};
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions};
use std::collections::{BTreeMap, BTreeSet};

const SPEC: &str = r#"(
    name: "reports",
    seed: 9,
    strategy: (mu: 3, lambda: 6, generations: 4, plus: true),
    noise: (samples: 8, elites: 2, elite_samples: 8,
            racing: (batch: 2, min_samples: 4, z: 1.645, max_samples: 16)),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 200, c_e: 0.5),
)"#;

fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|line| {
            // The last field (a formula) is quoted and may hold commas: split the rest.
            let (head, formula) = line.split_once(",\"").unwrap();
            let mut fields: Vec<String> = head.split(',').map(String::from).collect();
            fields.push(formula.trim_end_matches('"').replace("\"\"", "\""));
            assert_eq!(fields.len(), header.len(), "{line}");
            header.iter().cloned().zip(fields).collect()
        })
        .collect()
}

#[test]
fn logbook_hall_of_fame_and_lineage_match_the_generation_files() {
    let spec = EvolveSpec::from_ron(SPEC, "reports.ron").unwrap();
    let dir = crate::support::scratch("evolve", "reports");
    let _ = std::fs::remove_dir_all(&dir);
    run_evolution(
        &spec,
        &RunOptions {
            out_dir: dir.clone(),
            resume: false,
            threads: Some(2),
            progress: false,
            stop_after: None,
            srun: None,
        },
    )
    .unwrap();
    let gens = read_generations(&dir).unwrap();
    assert_eq!(gens.len(), 5);

    // Logbook: a row per generation with the generation file's numbers.
    let logbook = csv_rows(&std::fs::read_to_string(dir.join("logbook.csv")).unwrap());
    assert_eq!(logbook.len(), gens.len());
    let mut total = 0u64;
    for (row, g) in logbook.iter().zip(&gens) {
        let num = |k: &str| row[k].parse::<f64>().unwrap();
        assert_eq!(row["generation"], g.generation.to_string());
        assert_eq!(num("best"), g.best);
        assert_eq!(num("mean"), g.mean);
        assert_eq!(row["champion_id"], g.champion.id.to_string());
        assert_eq!(num("champion_mean"), g.champion.fitness.mean);
        assert_eq!(num("champion_low"), g.champion.fitness.low);
        assert_eq!(num("champion_high"), g.champion.fitness.high);
        assert_eq!(row["champion_formula"], g.champion.formula.to_string());
        assert_eq!(row["samples_spent"], g.spent.to_string());
        assert_eq!(row["dropped"], g.dropped.to_string());
        total += g.spent;
        assert_eq!(row["games_total"], total.to_string());
        assert_eq!(total, g.samples_spent);
    }

    // Hall of fame: distinct canonical forms, best lower bound first, drawn from the files.
    let members = all_members(&gens);
    let hall = csv_rows(&std::fs::read_to_string(dir.join("hall_of_fame.csv")).unwrap());
    assert_eq!(hall.len(), hall_of_fame(&gens, HALL_SIZE).len());
    assert!(!hall.is_empty() && hall.len() <= HALL_SIZE);
    let mut forms = BTreeSet::new();
    let mut previous = f64::INFINITY;
    for row in &hall {
        let m = &members[&row["id"].parse::<usize>().unwrap()];
        assert_eq!(row["formula"], m.formula.to_string());
        assert_eq!(row["mean"].parse::<f64>().unwrap(), m.fitness.mean);
        assert!(
            forms.insert(m.formula.canonical().to_string()),
            "duplicate form"
        );
        let low = m.fitness.mean - m.fitness.half_width();
        assert!(low <= previous);
        previous = low;
    }

    // Lineage: every edge is a parent link of the files; the champion's whole ancestry is there.
    let dot = std::fs::read_to_string(dir.join("lineage.dot")).unwrap();
    let mut label_of_node: BTreeMap<String, usize> = BTreeMap::new();
    let mut edges = Vec::new();
    for line in dot.lines().map(str::trim) {
        if let Some((node, rest)) = line.split_once(" [ label = \"#") {
            let id: usize = rest.split(' ').next().unwrap().parse().unwrap();
            label_of_node.insert(node.to_string(), id);
        } else if let Some((a, rest)) = line.split_once(" -> ") {
            edges.push((a.to_string(), rest.split(' ').next().unwrap().to_string()));
        }
    }
    assert!(!edges.is_empty());
    for (a, b) in &edges {
        let (parent, child) = (label_of_node[a], label_of_node[b]);
        assert_eq!(
            members[&child].parent,
            Some(parent),
            "edge {parent} -> {child}"
        );
    }
    let ids: BTreeSet<usize> = label_of_node.values().copied().collect();
    let mut id = Some(gens.last().unwrap().champion.id);
    while let Some(i) = id {
        assert!(ids.contains(&i), "ancestor #{i} of the champion is missing");
        id = members[&i].parent;
    }
    assert!(ids.contains(&0), "the lineage reaches the seed formula");
    assert_eq!(
        edges.len(),
        ids.len() - 1,
        "a tree rooted at the seed formula"
    );

    // The SVG draws the same nodes and edges.
    let svg = std::fs::read_to_string(dir.join("lineage.svg")).unwrap();
    assert!(svg.starts_with("<svg "));
    assert_eq!(svg.matches("<rect x=").count(), ids.len());
    assert_eq!(svg.matches("<line ").count(), edges.len());
    for i in &ids {
        assert!(svg.contains(&format!(">#{i} (gen ")), "node #{i} not drawn");
    }

    // The run wrote them from the generations in hand; rebuilt from the generation files,
    // as `report` and a resume of a finished run do, they are the same bytes.
    let written = report_bytes(&dir);
    write_reports(&dir, 1).unwrap();
    assert_eq!(report_bytes(&dir), written);
    std::fs::remove_dir_all(dir).unwrap();
}

/// The four report files of a run, by name.
fn report_bytes(dir: &std::path::Path) -> Vec<(&'static str, Vec<u8>)> {
    [LOGBOOK, HALL_OF_FAME, LINEAGE_DOT, LINEAGE_SVG]
        .map(|name| (name, std::fs::read(dir.join(name)).unwrap()))
        .to_vec()
}

/// A run stopped after each generation and resumed writes, generation by generation, the
/// reports a rebuild from its files writes: the generations read back on resume join the
/// ones made in hand.
#[test]
fn reports_written_from_the_generations_in_hand_are_a_rebuild_from_disk() {
    let spec = EvolveSpec::from_ron(SPEC, "reports.ron").unwrap();
    let dir = crate::support::scratch("evolve", "reports-in-hand");
    let _ = std::fs::remove_dir_all(&dir);
    for stop in 0..=spec.strategy.generations {
        run_evolution(
            &spec,
            &RunOptions {
                out_dir: dir.clone(),
                resume: stop > 0,
                threads: Some(2),
                progress: false,
                stop_after: Some(stop),
                srun: None,
            },
        )
        .unwrap();
        let written = report_bytes(&dir);
        write_reports(&dir, 1).unwrap();
        assert_eq!(report_bytes(&dir), written, "after generation {stop}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
