//! Evolution folders that lost or damaged a generation in the middle are refused on resume,
//! naming the file; `spec.ron` follows a run that grew more generations (issue 18, defect 11).

use crate::reliability::{evolve_opts, EVOLVE};
use evomcts::evolve::{run_evolution, EvolveSpec};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = crate::support::scratch("relgen", name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// 11. A missing or damaged middle generation is found; spec.ron follows more generations.
#[test]
fn evolution_folders_with_a_missing_middle_generation_are_refused() {
    let spec = EvolveSpec::from_ron(EVOLVE, "tiny-bandit.ron").unwrap();
    let dir = scratch("gens");
    run_evolution(&spec, &evolve_opts(&dir, false, Some(2))).unwrap();
    let middle = dir.join("gen-001.ron");
    let saved = std::fs::read(&middle).unwrap();
    std::fs::remove_file(&middle).unwrap();
    let err = run_evolution(&spec, &evolve_opts(&dir, true, None))
        .err()
        .expect("a gap is refused")
        .to_string();
    assert!(
        err.contains("gen-001.ron") && err.contains("missing"),
        "{err}"
    );
    std::fs::write(&middle, b"Generation(oops").unwrap();
    let err = run_evolution(&spec, &evolve_opts(&dir, true, None))
        .err()
        .expect("a damaged generation is refused")
        .to_string();
    assert!(err.contains("gen-001.ron"), "{err}");
    std::fs::write(&middle, saved).unwrap();
    run_evolution(&spec, &evolve_opts(&dir, true, None)).unwrap();
    // More generations later: the folder's spec says so.
    let longer = EvolveSpec::from_ron(
        &EVOLVE.replace("generations: 3", "generations: 5"),
        "tiny-bandit.ron",
    )
    .unwrap();
    let outcome = run_evolution(&longer, &evolve_opts(&dir, true, None)).unwrap();
    assert_eq!(outcome.last.generation, 5);
    let stored = EvolveSpec::from_file(dir.join("spec.ron")).unwrap();
    assert_eq!(stored.strategy.generations, 5);
    let _ = std::fs::remove_dir_all(dir);
}
