//! `evomcts replicate`: every paper preset over K master seeds, resumable, then the report
//! that sets the paper's published tables beside ours (`docs/replication.md`).

use anyhow::{Context, Result};
use clap::Args;
use evomcts::analysis::studies::replication::{
    load_preset_runs, render_markdown, star_decisions, MarkdownInput, Published, StarDecisions,
    WallLine,
};
use evomcts::escape;
use evomcts::league::{run_league, BonusRules, LeagueSpec, RunOptions};
use evomcts::slurm::gather::gather_slices;
use evomcts::slurm::scripts::MAX_ALLOCATION_TASKS;
use std::path::{Path, PathBuf};

/// The presets of Tables IV–VIII and the extra table, cheapest first.
const PRESETS: [&str; 4] = ["reward", "star", "mcts_ce", "extra_bandits"];
/// The defaults of the flags `evomcts slurm --kind replicate` shares.
pub const DEFAULT_SEEDS: u64 = 5;
pub const DEFAULT_OUT: &str = "runs/replication";
pub const DEFAULT_PRESETS: &str = "runs/paper";
pub const DEFAULT_REPORT: &str = "docs/replication.md";
pub const DEFAULT_STAR_EVERY: usize = 40;
/// The most master seeds per preset.
pub const MAX_SEEDS: u64 = 100;

#[derive(Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bars")))]
pub struct ReplicateArgs {
    /// Master seeds per preset: the preset's own seed s and s+1, ..., s+K-1.
    #[arg(long, default_value_t = DEFAULT_SEEDS)]
    seeds: u64,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
    /// Folder of the run folders (<out>/<preset>/seed-<s>/).
    #[arg(long, default_value = DEFAULT_OUT)]
    out: PathBuf,
    /// Folder of the presets and of published.ron.
    #[arg(long, default_value = DEFAULT_PRESETS)]
    presets: PathBuf,
    /// The report written.
    #[arg(long, default_value = DEFAULT_REPORT)]
    report: PathBuf,
    /// Also run the finalists league (Tables IX/X), once, with the preset's own seed.
    #[arg(long)]
    finalists: bool,
    /// Play no league game: only rewrite the report from the existing folders (and compute
    /// the Star decision comparison if <out>/star-decisions.json is missing, unless
    /// --star-every 0).
    #[arg(long)]
    report_only: bool,
    /// The leagues were played as K slices each, <out>/<preset>/seed-<s>/shard-I-of-K (the job
    /// arrays `evomcts slurm --kind replicate` writes): first merge every league's slices into
    /// its folder (records checked as `table` checks them, in schedule order), then go on as
    /// without the flag.
    #[arg(long)]
    shards: Option<usize>,
    /// Star decision comparison: ask Star1/2/2.5 at every N-th position of the first Star
    /// seed's games (0 skips it). Kept in <out>/star-decisions.json; delete it to redo.
    #[arg(long, default_value_t = DEFAULT_STAR_EVERY)]
    star_every: usize,
    /// A sentence printed under the report's heading (e.g. how the folders were produced).
    #[arg(long)]
    note: Option<String>,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
}

/// One league of a replication.
pub struct ReplicationLeague {
    pub preset: &'static str,
    /// The preset's spec with its seed moved on by the master seed's index.
    pub spec: LeagueSpec,
    /// `<out>/<preset>/seed-<s>`.
    pub dir: PathBuf,
}

/// Every league of a replication with `seeds` master seeds, seed-major (if a run is stopped,
/// every preset has about as many seeds); the finalists once, with the preset's own seed. Every
/// preset file is read before anything is played.
pub fn replication_leagues(
    presets_dir: &Path,
    out: &Path,
    seeds: u64,
    finalists: bool,
) -> Result<Vec<ReplicationLeague>> {
    let mut presets: Vec<&'static str> = PRESETS.to_vec();
    if finalists {
        presets.push("finalists");
    }
    let mut leagues = Vec::new();
    for k in 0..seeds {
        for &preset in &presets {
            if preset == "finalists" && k > 0 {
                continue;
            }
            let mut spec = LeagueSpec::from_file(presets_dir.join(format!("{preset}.ron")))?;
            spec.seed += k;
            let dir = out.join(preset).join(format!("seed-{}", spec.seed));
            leagues.push(ReplicationLeague { preset, spec, dir });
        }
    }
    Ok(leagues)
}

fn cpu_model() -> String {
    evomcts::runfs::read_capped_text(
        std::path::Path::new("/proc/cpuinfo"),
        evomcts::runfs::MAX_SPEC_FILE_BYTES,
        "CPU information",
    )
    .ok()
    .and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|s| s.trim().to_string())
    })
    .unwrap_or_else(|| "unknown CPU".into())
}

/// Plays what is missing of one league (at most `max_games` games) and writes its tables; the
/// games played now and their wall time are appended to its `wall.jsonl`.
fn run_one(
    spec: &LeagueSpec,
    dir: &Path,
    args: &ReplicateArgs,
    max_games: Option<usize>,
) -> Result<()> {
    let start = std::time::Instant::now();
    let opts = RunOptions {
        out_dir: dir.to_path_buf(),
        resume: true,
        threads: args.threads.threads,
        progress: args.quiet.progress(),
        max_games,
        shard: None,
    };
    let outcome = run_league(spec, &opts)?;
    let seconds = start.elapsed().as_secs_f64();
    let tables = evomcts::league::Tables::from_games(
        &spec.names(),
        spec.games_per_match,
        &spec.bonus,
        &outcome.games,
    );
    evomcts::league::report::write_tables(&tables, dir)
        .with_context(|| format!("writing tables to {}", dir.display()))?;
    if outcome.played_now > 0 {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let line = WallLine {
            played: outcome.played_now,
            seconds,
            threads: args.threads.threads.unwrap_or(cpus),
            cpus,
            cpu: cpu_model(),
            // Seconds since the Unix epoch (no calendar dependency).
            finished: format!(
                "unix:{}",
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs())
            ),
        };
        use std::io::Write;
        let mut f = evomcts::runfs::open_own(
            &dir.join("wall.jsonl"),
            std::fs::OpenOptions::new().create(true).append(true),
        )
        .with_context(|| format!("{}/wall.jsonl", dir.display()))?;
        writeln!(f, "{}", serde_json::to_string(&line)?)?;
    }
    evomcts::note!(
        "{}: {} games played now, {} already recorded, {seconds:.1} s",
        escape::path(dir),
        outcome.played_now,
        outcome.already_recorded
    );
    Ok(())
}

pub fn run(args: ReplicateArgs) -> Result<()> {
    // Every seed plays every paper preset: hours each.
    crate::cli::check_count("--seeds", args.seeds, 1, MAX_SEEDS)?;
    if let Some(k) = args.shards {
        crate::cli::check_count("--shards", k as u64, 1, MAX_ALLOCATION_TASKS as u64)?;
    }
    let published_path = args.presets.join("published.ron");
    let published = Published::from_file(&published_path)?;
    // The folder of the replication's leagues holds no other kind of run.
    let _lock = evomcts::runfs::RunLock::open_run_folder(
        &args.out,
        evomcts::runfs::RunKind::Replication,
        "replicate",
    )?;
    if !args.report_only || args.shards.is_some() {
        let leagues = replication_leagues(&args.presets, &args.out, args.seeds, args.finalists)?;
        if let Some(k) = args.shards {
            for league in &leagues {
                gather(league, k)?;
            }
        }
        // With --report-only no game is played: the run only rewrites the gathered folders'
        // tables, as a finished local run leaves them.
        let max_games = args.report_only.then_some(0);
        for league in &leagues {
            let started = league.dir.join("spec.ron").exists()
                || evomcts::league::record_path(&league.dir).exists();
            if args.report_only && !started {
                continue;
            }
            run_one(&league.spec, &league.dir, &args, max_games)?;
        }
    }
    let mut runs = Vec::new();
    for p in PRESETS.iter().chain(["finalists"].iter()) {
        if let Some(r) = load_preset_runs(&args.out, p)? {
            runs.push(r);
        }
    }
    let star_file = args.out.join(evomcts::runfs::kind::STAR_DECISIONS);
    let star: Option<StarDecisions> = if star_file.exists() {
        let text = evomcts::runfs::read_capped_text(
            &star_file,
            evomcts::runfs::MAX_DATA_FILE_BYTES,
            "Star decisions",
        )
        .with_context(|| format!("reading {}", star_file.display()))?;
        Some(
            serde_json::from_str(&text)
                .with_context(|| format!("{} does not parse", star_file.display()))?,
        )
    } else if args.star_every > 0 {
        match runs
            .iter()
            .find(|r| r.preset == "star")
            .and_then(|r| r.runs.first())
        {
            Some(first) => {
                let source = format!(
                    "the {} games of `{}/star/seed-{}`",
                    first.games.len(),
                    args.out.display(),
                    first.seed
                );
                evomcts::note!(
                    "asking Star1/2/2.5 at every {}th position of {source}",
                    args.star_every
                );
                let d = star_decisions(&first.games, args.star_every, &[50.0, 10.0], &source)
                    .map_err(anyhow::Error::msg)?;
                evomcts::runfs::write_atomically(
                    &star_file,
                    serde_json::to_string_pretty(&d)?.as_bytes(),
                )
                .with_context(|| format!("writing {}", star_file.display()))?;
                Some(d)
            }
            None => None,
        }
    } else {
        None
    };
    let es_study = Path::new("docs/es-study.md")
        .exists()
        .then(|| "es-study.md".to_string());
    let mut command = format!("evomcts replicate --seeds {}", args.seeds);
    if args.finalists {
        command.push_str(" --finalists");
    }
    let input = MarkdownInput {
        published: &published,
        published_path: published_path.display().to_string(),
        presets: runs,
        star,
        command,
        note: args.note.clone(),
        out_dir: args.out.display().to_string(),
        es_study,
        bonus: BonusRules::default(),
        score_bound: evomcts::games::carcassonne::evaluation::score_difference_bound(),
    };
    let text = render_markdown(&input);
    if let Some(dir) = args.report.parent() {
        evomcts::runfs::create_folder(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
    }
    evomcts::runfs::write_atomically(&args.report, text.as_bytes())
        .with_context(|| format!("writing {}", args.report.display()))?;
    evomcts::note!("report written to {}", escape::path(&args.report));
    Ok(())
}

/// Merges the slices of one league into its folder, saying what it found.
fn gather(league: &ReplicationLeague, count: usize) -> Result<()> {
    let shown = escape::path(&league.dir);
    match gather_slices(&league.spec, &league.dir, count)? {
        None if !league.dir.join("spec.ron").exists() => {
            evomcts::note!("{shown}: no slice of {count} to gather")
        }
        None => {}
        Some(g) if g.games < g.scheduled => evomcts::note!(
            "{shown}: gathered {} of {} games from {} of {count} slices; {} missing",
            g.games,
            g.scheduled,
            g.slices,
            g.scheduled - g.games
        ),
        Some(g) => evomcts::note!(
            "{shown}: gathered all {} games from {} slices",
            g.games,
            g.slices
        ),
    }
    Ok(())
}
