//! `evomcts pareto`: the front between simple and strong of an evolution run (see
//! `evolve::pareto`), for any run folder, also one whose spec did not ask for it: the hall of
//! fame's best distinct simplified formulas and the seed formula re-played on common fresh
//! sample seeds of evolution's namespace, judged by Holm-adjusted paired tests, written to
//! `RUN/pareto.csv` and printed.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::evolve::pareto::{write_front, Verdict, ALPHA, PARETO_CSV};
use evomcts::evolve::{EvolveSpec, ParetoSpec};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Args)]
pub struct ParetoArgs {
    /// The evolution run's folder, e.g. populations/connect-four.
    run: PathBuf,
    /// The spec the run was made with [default: RUN/spec.ron].
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Fresh samples each candidate plays (Carcassonne: tile sequences, both seatings).
    #[arg(long, default_value_t = 100)]
    samples: usize,
    /// How many of the hall of fame's best distinct simplified formulas are judged, the seed
    /// formula besides.
    #[arg(long, default_value_t = ParetoSpec::default_candidates())]
    candidates: usize,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
}

pub fn run(args: ParetoArgs) -> Result<()> {
    let spec_path = args.spec.unwrap_or_else(|| args.run.join("spec.ron"));
    let spec = EvolveSpec::from_file(&spec_path)?;
    let settings = ParetoSpec {
        candidates: args.candidates,
        samples: args.samples,
    };
    let total = (settings.candidates as u64 + 1) * settings.samples as u64;
    if args.quiet.progress() {
        evomcts::note!(
            "pareto `{}`: up to {} candidates × {} fresh samples -> {}",
            escape::terminal(&spec.name),
            settings.candidates + 1,
            settings.samples,
            escape::path(&args.run.join(PARETO_CSV))
        );
    }
    let done = AtomicU64::new(0);
    let step = (total / 10).max(1);
    let on_sample = || {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if args.quiet.progress() && n.is_multiple_of(step) {
            evomcts::note!("pareto: {n} samples played");
        }
    };
    let front = write_front(&spec, &args.run, settings, args.threads.threads, &on_sample)?;
    outln!("complexity  verdict     id    mean [95% interval]  n    against  p_holm  simplified")?;
    for i in front.members().into_iter().chain(
        (0..front.candidates.len()).filter(|&i| front.judgements[i].verdict != Verdict::Front),
    ) {
        let (c, e, j) = (
            &front.candidates[i],
            &front.estimates[i],
            &front.judgements[i],
        );
        let (against, p) = j
            .against
            .map_or(("-".to_string(), "-".to_string()), |(h, p)| {
                (format!("#{}", front.candidates[h].id), format!("{p:.3}"))
            });
        outln!(
            "{:>10}  {:<10}  #{:<4} {:.3} [{:.3}, {:.3}]  {:<4} {:<8} {:<7} {}",
            c.complexity,
            j.verdict.label(),
            c.id,
            e.mean,
            e.low,
            e.high,
            e.samples,
            against,
            p,
            escape::terminal(&c.simplified.to_string())
        )?;
    }
    outln!(
        "front: the candidates no simpler or as simple one matches (paired Wilcoxon, Holm over all {} pairs, α = {ALPHA}); #0 is the seed formula",
        front.candidates.len() * front.candidates.len().saturating_sub(1) / 2
    )?;
    Ok(())
}
