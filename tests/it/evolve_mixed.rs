//! An evolution whose fitness mixes several games (`fitness: Mixed(games: [..])`): sample s of
//! every stream plays game s mod k, each game against its own baseline, scored as a win rate;
//! the generation files show each member's fitness on every game; a run stopped and resumed
//! writes the same bytes, so do K runs with their tournament played as job steps; a mix scored
//! by score difference, or a grammar with a terminal one game lacks, is refused naming the field.

use crate::support::{evolve_opts, scratch};
use evomcts::evolve::population::{generation_path, read_generations, Generation};
use evomcts::evolve::spec::SpecFileError;
use evomcts::evolve::{run_evolution, Estimate, EvolveSpec};
use std::path::Path;

/// Connect Four against the random player, and Pig to 20 against the candidate's own MCTS
/// with the seed formula: the seed formula's Pig samples are mirror games (both seatings play
/// alike), exactly one win in two each, while its Connect Four samples are wins.
const MIX: &str = r#"(
    name: "mixed-tiny",
    seed: 8,
    strategy: (mu: 2, lambda: 3, generations: 3, plus: true),
    noise: (
        samples: 5,
        elites: 1,
        elite_samples: 3,
        racing: (batch: 2, min_samples: 4, z: 2.326, max_samples: 7),
        reestimate: (candidates: 2, samples: 5),
        fit_constants: (candidates: 1, steps: 1, samples: 4),
    ),
    fitness: Mixed(games: [
        (game: ConnectFour, candidate: (sims: 20, c_e: 0.5), baseline: Random, score: WinRate),
        (
            game: Pig(target: 20),
            candidate: (sims: 30, c_e: 1.4),
            baseline: Mcts(sims: 30, c_e: 1.4, selection: Formula("Q + 2*C*sqrt(2*ln(N)/n)")),
            score: WinRate,
        ),
    ]),
    pareto: (candidates: 2, samples: 4),
)"#;

fn spec() -> EvolveSpec {
    EvolveSpec::from_ron(MIX, "mixed.ron").unwrap()
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    crate::evolve_resume::files(dir)
}

/// Samples s = 0, 1, … of n alternate between the two games, starting with the first: the
/// first game gets ⌈n/2⌉ of them, the second ⌊n/2⌋.
fn alternating(n: u64) -> [u64; 2] {
    [n.div_ceil(2), n / 2]
}

fn counts(per_game: &[Estimate]) -> Vec<u64> {
    per_game.iter().map(|e| e.samples).collect()
}

#[test]
fn a_mix_plays_sample_s_on_game_s_mod_k_and_resumes_byte_for_byte() {
    let spec = spec();
    assert_eq!(
        EvolveSpec::from_ron(&spec.to_ron(), "again.ron").unwrap(),
        spec
    );
    let whole = scratch("evolve_mixed", "whole");
    run_evolution(&spec, &evolve_opts(&whole, 2, false, None)).unwrap();
    let gens: Vec<Generation> = read_generations(&whole).unwrap();
    assert_eq!(gens.len(), 4);
    let mut compared = 0;
    for g in &gens {
        // A newborn's samples are this generation's first n (racing plays prefixes): so its
        // games alternate from the first.
        for m in &g.offspring {
            assert_eq!(counts(&m.per_game), alternating(m.fitness.samples), "{m:?}");
            compared += 1;
        }
        for m in g.parents.iter().chain([&g.champion]) {
            assert_eq!(m.per_game.len(), 2, "{m:?}");
            let sum: u64 = m.per_game.iter().map(|e| e.samples).sum();
            assert_eq!(sum, m.fitness.samples);
        }
    }
    assert!(compared >= 9, "{compared} newborns");
    // The seed formula played the generation's first 5 samples and the elites' 3: the games
    // alternate in each stream.
    let reference = &gens[0].reference;
    let [a, b] = [alternating(5), alternating(3)];
    assert_eq!(counts(&reference.per_game), [a[0] + b[0], a[1] + b[1]]);
    // Its Pig samples are mirror games (a win and a loss each, every time), its Connect Four
    // samples are not: so game 1 of the mix really was Pig against its own baseline.
    let pig = reference.per_game[1];
    assert_eq!((pig.mean, pig.m2), (0.5, 0.0), "{pig:?}");
    let four = reference.per_game[0];
    assert!(four.mean > 0.5, "Connect Four against Random: {four:?}");
    let pooled = (four.mean * four.samples as f64 + pig.mean * pig.samples as f64)
        / reference.fitness.samples as f64;
    assert!((pooled - reference.fitness.mean).abs() < 1e-12);
    // Some newborn differs from the seed formula on Pig: not every Pig sample is a mirror.
    assert!(gens[1..]
        .iter()
        .flat_map(|g| &g.offspring)
        .any(|m| m.per_game[1].m2 > 0.0 || m.per_game[1].mean != 0.5));
    for name in [
        "reestimate.csv",
        "pareto.csv",
        "champion.ron",
        "logbook.csv",
    ] {
        assert!(whole.join(name).is_file(), "{name}");
    }

    // Stopped after generation 1 on one thread, resumed on two: the same bytes.
    let split = scratch("evolve_mixed", "split");
    run_evolution(&spec, &evolve_opts(&split, 1, false, Some(1))).unwrap();
    assert!(!split.join("reestimate.csv").exists());
    run_evolution(&spec, &evolve_opts(&split, 2, true, None)).unwrap();
    assert_eq!(files(&whole), files(&split));

    // A generation file whose member holds a fitness on a third game is refused by the reader,
    // naming the field.
    let path = generation_path(&split, 2);
    let text = std::fs::read_to_string(&path).unwrap();
    let extra =
        "per_game: [\n            Estimate(samples: 1, mean: 0.5, m2: 0.0, low: 0.5, high: 0.5),";
    std::fs::write(&path, text.replacen("per_game: [", extra, 1)).unwrap();
    let why = read_generations(&split).unwrap_err().to_string();
    assert!(
        why.contains("gen-002.ron") && why.contains("per_game") && why.contains("3 estimates"),
        "{why}"
    );

    // The report reads the run, and `evolve` names the champion's controller on every game.
    let (out, _) = crate::support::evomcts_ok(&[
        "report",
        whole.to_str().unwrap(),
        "--out",
        whole.with_extension("report").to_str().unwrap(),
    ]);
    assert!(out.contains("index.html"), "{out}");
    for d in [whole.clone(), split, whole.with_extension("report")] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// The files of a run folder (not its folders, the lock or the steps' progress line), by name.
fn plain_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .filter(|(n, _)| n != ".evomcts.lock" && n != "steps-progress.txt")
        .map(|(n, p)| (n, std::fs::read(p).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn k_runs_of_a_mix_and_their_tournament_as_job_steps_write_the_same_bytes() {
    let dir = scratch("evolve_mixed", "runs");
    std::fs::create_dir_all(&dir).unwrap();
    let spec_path = dir.join("mixed.ron");
    let short = MIX
        .replace("generations: 3", "generations: 1")
        .replace("        reestimate: (candidates: 2, samples: 5),\n", "")
        .replace(
            "        fit_constants: (candidates: 1, steps: 1, samples: 4),\n",
            "",
        )
        .replace("    pareto: (candidates: 2, samples: 4),\n", "");
    std::fs::write(&spec_path, short).unwrap();
    let spec = spec_path.to_str().unwrap();
    let run = |out: &Path, slurm: Option<&Path>, extra: &[&str]| -> String {
        let mut args = vec!["evolve", spec, "--quiet", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let done = crate::steps::run(&args, slurm, &[("FAKE_SRUN_TASKS", "2")]);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(done.status.success(), "{stderr}");
        String::from_utf8_lossy(&done.stdout).into_owned()
    };
    // One run names the champion's controller on each game of the mix.
    let printed = run(&dir.join("single"), None, &[]);
    for game in [
        "(Connect Four; paste",
        "(Pig to 20; paste",
        "champion on Connect Four: ",
        "reference on Pig to 20: 0.500 ± 0.000",
    ] {
        assert!(printed.contains(game), "{printed}");
    }
    let runs = ["--runs", "2", "--tournament-samples", "10"];
    let local = dir.join("local");
    let printed = run(&local, None, &[&runs[..], &["--threads", "2"]].concat());
    assert!(printed.contains("crowned by the tournament"), "{printed}");
    let slurm = crate::steps::fake_slurm("mixed-srun");
    let stepped = dir.join("stepped");
    run(&stepped, Some(&slurm), &[&runs[..], &["--srun"]].concat());
    for sub in ["", "run-1", "run-2"] {
        let (a, b) = (
            plain_files(&local.join(sub)),
            plain_files(&stepped.join(sub)),
        );
        assert!(a.iter().any(|(n, _)| n == "champion.txt"), "{sub}");
        assert_eq!(a, b, "{sub}");
    }
    assert!(local.join("tournament.csv").is_file());
    for d in [dir, slurm] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

fn refusal(text: &str) -> (String, String) {
    match EvolveSpec::from_ron(text, "mixed.ron").unwrap_err() {
        SpecFileError::Invalid { field, message, .. } => (field, message),
        other => panic!("not a field's error: {other}"),
    }
}

#[test]
fn a_mix_scored_by_score_difference_or_reading_a_terminal_one_game_lacks_is_refused() {
    // Score difference, written or left out (its default), is refused at the game's field.
    let diff = MIX.replacen(
        "score: WinRate,\n        ),",
        "score: ScoreDiff,\n        ),",
        1,
    );
    let (field, message) = refusal(&diff);
    assert_eq!(field, "fitness.games[1].score");
    assert!(
        message.contains("WinRate") && message.contains("Pig to 20"),
        "{message}"
    );
    let omitted = MIX.replacen(", score: WinRate)", ")", 1);
    assert_eq!(refusal(&omitted).0, "fitness.games[0].score");
    // The binary says so too, with status 2 and the field.
    let dir = scratch("evolve_mixed", "refused");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("diff.ron");
    std::fs::write(&path, &diff).unwrap();
    let out = crate::support::evomcts(&[
        "evolve",
        path.to_str().unwrap(),
        "--out",
        dir.join("run").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fitness.games[1].score"), "{stderr}");
    assert!(!dir.join("run").join("gen-000.ron").exists());
    // The binary plays no OpenSpiel game, in a mix as alone: refused, naming the Python package.
    let open_spiel = MIX.replace(
        "game: ConnectFour,",
        "game: OpenSpiel(name: \"tic_tac_toe\"),",
    );
    std::fs::write(&path, open_spiel).unwrap();
    let out = crate::support::evomcts(&[
        "evolve",
        path.to_str().unwrap(),
        "--out",
        dir.join("open-spiel").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`tic_tac_toe` is played from the Python package"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();

    // A move feature: Carcassonne gives it, Pig does not.
    let carcassonne_and_pig = MIX.replace(
        "(game: ConnectFour, candidate: (sims: 20, c_e: 0.5), baseline: Random, score: WinRate)",
        "(candidate: (sims: 20, c_e: 0.5), baseline: Random, score: WinRate)",
    );
    let with_features = |text: &str| {
        let mut spec = EvolveSpec::from_ron(text, "mixed.ron").unwrap();
        spec.grammar =
            evomcts::runfs::resolve_grammar("grammars/carcassonne_features.ron", Path::new("."))
                .unwrap();
        spec.validate()
    };
    let (field, message) = with_features(&carcassonne_and_pig).unwrap_err();
    assert_eq!(field, "grammar");
    assert!(
        message.contains("Pig to 20") && message.contains("fitness.games[1]"),
        "{message}"
    );
    assert!(message.contains("move feature `"), "{message}");
    // With Carcassonne twice, the same grammar is fine.
    let carcassonne_twice = carcassonne_and_pig.replace("game: Pig(target: 20),", "");
    assert_eq!(with_features(&carcassonne_twice), Ok(()));

    // One game is not a mix; hashing has no bank across games.
    let one = MIX.replacen(
        "(game: ConnectFour, candidate: (sims: 20, c_e: 0.5), baseline: Random, score: WinRate),",
        "",
        1,
    );
    assert_eq!(refusal(&one).0, "fitness.games");
    let hashed = MIX.replace(
        "elites: 1,",
        "elites: 1,\n        functional_hashing: (situations: 10),",
    );
    let (field, message) = refusal(&hashed);
    assert_eq!(field, "noise.functional_hashing");
    assert!(
        message.contains("a mix of Connect Four and Pig to 20"),
        "{message}"
    );
}
