//! The enumeration run (`enumerate` in an evolution spec): it finds a planted formula, fits a
//! finalist's constants, states its space, refuses a space too large or a spec that is half an
//! evolution's, and resumes byte for byte, whatever the thread count, after a stop anywhere.

use crate::evolve_resume::files;
use crate::support::{evolve_opts, evomcts, scratch};
use evomcts::evolve::enumeration::run_enumeration;
use evomcts::evolve::enumeration_files::{FIT_CSV, RACE_CSV};
use evomcts::evolve::planted::agreement_of;
use evomcts::evolve::{EvolveSpec, FitnessSpec};
use std::path::{Path, PathBuf};

/// A grammar small enough that every form of 5 nodes races in a fraction of a second.
const GRAMMAR: &str = r#"Grammar(
    name: "small",
    description: "The enumeration tests' grammar.",
    functions: ["+", "*", "/"],
    terminals: ["Q", "n", "H"],
    constants: [1.0],
    c_e_values: [0.5],
    depth_cap: 6,
    subtree_depth: (min: 1, max: 2),
    internal_node_probability: 0.9,
)"#;

/// The planted control at `formula`, every form of `nodes` nodes, placeholders at 1, ¼ and 4.
fn spec(dir: &Path, formula: &str, nodes: usize, seed: u64) -> EvolveSpec {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("small.ron"), GRAMMAR).unwrap();
    let text = format!(
        r#"(
    name: "planted",
    seed: {seed},
    grammar: "small.ron",
    enumerate: (
        max_nodes: {nodes},
        bank: 200,
        values: [1.0, 0.25, 4.0],
        max_candidates: 400,
        race: (budget: 6000, keep: 3),
        fit: (games: 64, batch: 16),
        final: (samples: 100),
    ),
    fitness: Planted(formula: "{formula}", gain: 0.4, sets: 200),
)"#
    );
    let path = dir.join("spec.ron");
    std::fs::write(&path, text).unwrap();
    EvolveSpec::from_file(&path).unwrap()
}

fn planted(spec: &EvolveSpec) -> &evomcts::evolve::PlantedSpec {
    let FitnessSpec::Planted(p) = &spec.fitness else {
        panic!("a planted spec")
    };
    p
}

/// `Q + H` (3 nodes) is among 3-node forms: the race keeps it, the final race declares it better
/// than the seed, and it is crowned; the run states its space and every sample it spent.
#[test]
fn the_enumeration_finds_the_planted_formula_and_states_its_space() {
    let dir = scratch("enumerate", "finds");
    let spec = spec(&dir.join("in"), "Q + H", 3, 1);
    let out = dir.join("run");
    let r = run_enumeration(&spec, &evolve_opts(&out, 2, false, None)).unwrap();
    assert_eq!(agreement_of(&r.champion, planted(&spec)).unwrap(), 1.0);
    assert!(r.classes > 10 && r.candidates >= r.classes && r.raced == r.candidates);
    assert!(
        r.samples[0] <= 6000 && r.samples[2] == 4 * 100,
        "{:?}",
        r.samples
    );
    assert!(r.finals.iter().any(|(_, row)| row.better));
    let md = std::fs::read_to_string(out.join("enumeration.md")).unwrap();
    for needle in [
        format!("{} classes", r.classes),
        format!("{} candidates", r.candidates),
        format!("{} unique forms", r.forms),
        format!("{} in the race", r.samples[0]),
        format!("Champion: `{}`", r.champion),
    ] {
        assert!(md.contains(&needle), "{needle} missing from:\n{md}");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("champion.txt")).unwrap(),
        format!("{}\n", r.champion)
    );
    let candidates = std::fs::read_to_string(out.join("enumeration-candidates.csv")).unwrap();
    assert_eq!(candidates.lines().count(), r.candidates + 1);
}

/// With `add_to`, forms race as terms of a formula that already plays: UCT plus the planted
/// term `H` is found among the terms of 1 node, and the crowned formula is that sum.
#[test]
fn terms_added_to_a_base_find_the_planted_sum() {
    let dir = scratch("enumerate", "terms");
    let uct = "Q + 2*C*sqrt(2*ln(N)/n)";
    let mut spec = spec(&dir.join("in"), &format!("{uct} + H"), 1, 4);
    spec.enumerate.as_mut().unwrap().add_to = Some(uct.parse().unwrap());
    let r = run_enumeration(&spec, &evolve_opts(&dir.join("run"), 1, false, None)).unwrap();
    assert_eq!(agreement_of(&r.champion, planted(&spec)).unwrap(), 1.0);
    assert!(r.champion.to_string().starts_with(uct), "{}", r.champion);
    assert!(r.candidates <= 4, "{} candidates of 1 node", r.candidates);
}

/// Threads do not change a byte; a run stopped after any round of the race or any batch of a
/// fit (what a kill leaves: every file is written whole) and resumed writes what a run never
/// stopped writes.
#[test]
fn a_stopped_enumeration_resumes_byte_for_byte_and_threads_do_not_matter() {
    let dir = scratch("enumerate", "resume");
    let spec = spec(&dir.join("in"), "Q + 0.25*H", 5, 2);
    let whole = dir.join("whole");
    let r = run_enumeration(&spec, &evolve_opts(&whole, 1, false, None)).unwrap();
    assert!(
        r.finalists.iter().any(|f| f.fitted),
        "no finalist was fitted, so the fit's resume is untested: {:?}",
        r.finalists
    );
    let two = dir.join("two");
    run_enumeration(&spec, &evolve_opts(&two, 2, false, None)).unwrap();
    assert_eq!(files(&whole), files(&two));
    let race = std::fs::read_to_string(whole.join(RACE_CSV)).unwrap();
    let fit = std::fs::read_to_string(whole.join(FIT_CSV)).unwrap();
    let first_round = race.lines().filter(|l| l.starts_with("1,")).count();
    for (k, (race_lines, fit_lines)) in [(1 + first_round, 0), (race.lines().count(), 1 + 16)]
        .into_iter()
        .enumerate()
    {
        let cut = dir.join(format!("cut-{k}"));
        copy(&whole, &cut);
        keep_lines(&cut.join(RACE_CSV), &race, race_lines);
        keep_lines(&cut.join(FIT_CSV), &fit, fit_lines);
        for later in ["enumeration-final.csv", "enumeration.md", "champion.txt"] {
            std::fs::remove_file(cut.join(later)).unwrap();
        }
        let refused = run_enumeration(&spec, &evolve_opts(&cut, 2, false, None)).unwrap_err();
        assert!(refused.to_string().contains("--resume"), "{refused}");
        run_enumeration(&spec, &evolve_opts(&cut, 2, true, None)).unwrap();
        assert_eq!(files(&whole), files(&cut), "resumed from cut {k}");
    }
    // A stored sample that does not fit the schedule is named, and the folder left alone.
    let bad = dir.join("bad");
    copy(&whole, &bad);
    std::fs::write(bad.join(RACE_CSV), race.replacen("\n1,0,0,", "\n1,1,0,", 1)).unwrap();
    let before = files(&bad);
    let e = run_enumeration(&spec, &evolve_opts(&bad, 2, true, None)).unwrap_err();
    assert!(e.to_string().contains(RACE_CSV), "{e}");
    assert_eq!(before, files(&bad));
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Writes the first `lines` lines of `text` to `path`, or removes it for 0.
fn keep_lines(path: &PathBuf, text: &str, lines: usize) {
    if lines == 0 {
        std::fs::remove_file(path).unwrap();
        return;
    }
    let kept: String = text.lines().take(lines).map(|l| format!("{l}\n")).collect();
    std::fs::write(path, kept).unwrap();
}

/// A space larger than `max_candidates` is refused with its size unless the spec samples it; a
/// spec with both a strategy and an enumeration, or an enumeration on the bandit, names the
/// field; the binary runs an enumeration spec through `evolve`.
#[test]
fn a_space_too_large_or_a_mixed_spec_is_refused_by_name() {
    let dir = scratch("enumerate", "refused");
    let mut spec = spec(&dir.join("in"), "Q + H", 3, 3);
    spec.enumerate.as_mut().unwrap().max_candidates = 20;
    spec.enumerate.as_mut().unwrap().race.budget = 6000;
    let e = run_enumeration(&spec, &evolve_opts(&dir.join("a"), 1, false, None)).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("classes")
            && text.contains("max_candidates (20)")
            && text.contains("sample: true"),
        "{text}"
    );
    spec.enumerate.as_mut().unwrap().sample = true;
    let r = run_enumeration(&spec, &evolve_opts(&dir.join("b"), 1, false, None)).unwrap();
    assert_eq!(r.raced, 20);
    assert!(r.candidates > 20);

    let base = std::fs::read_to_string(dir.join("in/spec.ron")).unwrap();
    for (edit, field) in [
        (
            base.replace(
                "    seed: 3,",
                "    seed: 3,\n    strategy: (mu: 2, lambda: 4, generations: 1),",
            ),
            "strategy",
        ),
        (
            base.replace(
                r#"fitness: Planted(formula: "Q + H", gain: 0.4, sets: 200)"#,
                "fitness: Bandit(arms: 5)",
            ),
            "fitness",
        ),
        (
            base.replace("budget: 6000", "budget: 10"),
            "enumerate.race.budget",
        ),
    ] {
        let path = dir.join("in/edited.ron");
        std::fs::write(&path, &edit).unwrap();
        let message = match EvolveSpec::from_file(&path) {
            Err(e) => e.to_string(),
            Ok(s) => run_enumeration(&s, &evolve_opts(&dir.join("c"), 1, false, None))
                .unwrap_err()
                .to_string(),
        };
        assert!(message.contains(field), "{field}: {message}");
    }
    let out = evomcts(&[
        "evolve",
        dir.join("in/spec.ron").to_str().unwrap(),
        "--out",
        dir.join("cli").to_str().unwrap(),
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("champion: Q + H"), "{stdout}");
}

/// The binary killed (SIGKILL) once the race has written a round, then resumed, writes the
/// bytes of a run never stopped.
#[test]
fn an_enumeration_killed_mid_race_resumes_to_the_same_bytes() {
    let dir = scratch("enumerate", "kill");
    let mut spec = spec(&dir.join("in"), "Q + 0.25*H", 5, 6);
    spec.enumerate.as_mut().unwrap().race.budget = 60_000;
    let path = dir.join("in/big.ron");
    std::fs::write(&path, spec.to_ron()).unwrap();
    let whole = dir.join("whole");
    let run = |out: &Path, resume: bool| {
        let mut args = vec![
            "evolve",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(["--quiet", "--threads", "2"]);
        if resume {
            args.push("--resume");
        }
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let succeed = |args: Vec<String>| {
        let out = evomcts(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    succeed(run(&whole, false));
    let killed = dir.join("killed");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_evomcts"))
        .args(run(&killed, false))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !killed.join(RACE_CSV).exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    succeed(run(&killed, true));
    let strip = |d: &Path| {
        files(d)
            .into_iter()
            .filter(|(name, _)| !name.starts_with('.'))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&whole), strip(&killed));
}
