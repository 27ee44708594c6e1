//! The planted control's table: the enumeration and the ES on ten master seeds
//! (docs/evolution.md, "A positive control: a planted formula"). A measurement, ignored by
//! default.

use crate::enumeration::run_enumeration;
use crate::planted::{agreement_of, recovered};
use crate::run::{run_evolution, RunOptions};
use crate::spec::{EvolveSpec, FitnessSpec};
use std::path::{Path, PathBuf};

fn options(out_dir: PathBuf) -> RunOptions {
    RunOptions {
        out_dir,
        resume: false,
        threads: Some(2),
        progress: false,
        stop_after: None,
        srun: None,
    }
}

fn planted(spec: &EvolveSpec) -> &crate::spec::PlantedSpec {
    let FitnessSpec::Planted(p) = &spec.fitness else {
        panic!("a planted spec")
    };
    p
}

/// The planted control's table (docs/evolution.md, "A positive control"): the committed
/// enumeration and ES specs (`runs/evolve/`) on master seeds 1 to 10. For each: whether the
/// crowned formula is in the planted class (agreement 1 on the truth bank), the share of the
/// known gain it recovers, and the samples spent; for the ES also the samples spent when a
/// generation's champion first was in the planted class. Run with
/// `cargo test -p evomcts-evolve --release -- --ignored --nocapture planted_control_table`
/// (a crate test, so the integration tests' heavy tier does not spend 15 minutes on a table).
#[test]
#[ignore = "minutes: the positive control's table"]
fn planted_control_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runs/evolve");
    let dir = std::env::temp_dir().join(format!("evomcts-planted-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rows = Vec::new();
    for seed in 1..=10u64 {
        let mut e = EvolveSpec::from_file(root.join("planted-enumerate.ron")).unwrap();
        e.seed = seed;
        let p = planted(&e).clone();
        let r = run_enumeration(&e, &options(dir.join(format!("e{seed}")))).unwrap();
        let found = agreement_of(&r.champion, &p).unwrap() == 1.0;
        let share = recovered(&r.champion, &e.seed_formula, &p).unwrap();
        let mut es = EvolveSpec::from_file(root.join("planted-es.ron")).unwrap();
        es.seed = seed;
        let out = dir.join(format!("s{seed}"));
        let outcome = run_evolution(&es, &options(out.clone())).unwrap();
        let generations = crate::population::read_generations(&out).unwrap();
        let first = generations
            .iter()
            .find(|g| agreement_of(&g.champion.formula, &p).unwrap() == 1.0)
            .map(|g| g.samples_spent);
        let crowned = match &outcome.reestimated {
            Some((rows, k)) => rows[*k].member.formula.clone(),
            None => outcome.last.champion.formula.clone(),
        };
        let es_found = agreement_of(&crowned, &p).unwrap() == 1.0;
        let es_share = recovered(&crowned, &es.seed_formula, &p).unwrap();
        let es_samples = outcome.last.samples_spent
            + outcome
                .reestimated
                .as_ref()
                .map_or(0, |(rows, _)| rows.iter().map(|r| r.fresh.samples).sum());
        let row = format!(
            "| {seed} | {} | {:.3} | {} | {} | {:.3} | {} | {} |",
            if found { "yes" } else { "no" },
            share,
            r.total_samples(),
            if es_found { "yes" } else { "no" },
            es_share,
            es_samples,
            first.map_or("never".to_string(), |s| s.to_string()),
        );
        evomcts_records::note!("{row}");
        rows.push(row);
    }
    evomcts_records::note!(
        "| seed | enumeration: planted class crowned | share of the gain | samples | ES: planted class crowned | share of the gain | samples | ES: samples when a generation's champion first was in the class |\n|---|---|---|---|---|---|---|---|\n{}",
        rows.join("\n")
    );
}
