//! `evomcts tune`: tunes a controller's named constants (C_E, a formula's `{W1}` … `{Wk}`,
//! the prior's temperature, first-play urgency's constants) against an opponent on sweep
//! sequences by SPSA, re-estimates the recommendation on fresh ones and prints it, ready to
//! paste into a spec.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::runfs::SpecFile;
use evomcts::tune::{run_tune, TuneSpec, TUNED_RON};
use evomcts::validation::{p_text, summary_table};
use std::path::PathBuf;

#[derive(Args)]
#[command(
    mut_arg("out", |a| a.help(
        "Folder of the run [default: runs/tune/<spec name>]. One process at a time works in a \
         folder"
    )),
    mut_arg("quiet", |a| a.help(
        "No progress on stderr (without it: a line at most every 10 s with the steps, games, \
         rate and ETA, and the re-estimate's games)"
    ))
)]
pub struct TuneArgs {
    /// The tuning spec (RON), e.g. runs/validate/features/tune-100.ron.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::RunArgs,
}

pub fn run(args: TuneArgs) -> Result<()> {
    let spec = TuneSpec::from_file(&args.spec)?;
    let out = args
        .run
        .out_or(|| PathBuf::from("runs/tune").join(&spec.name));
    evomcts::note!(
        "tune `{}`: {} parameters, {} steps of {} games, then {} fresh sequences -> {}",
        escape::terminal(&spec.name),
        spec.parameters.len(),
        spec.steps(),
        spec.games_per_step(),
        spec.reestimate_sequences,
        escape::path(&out)
    );
    let outcome = run_tune(&spec, &args.run.options(out.clone(), &spec.name)?)?;
    outln!(
        "step {} of {} ({} played now)",
        outcome.steps_done,
        outcome.steps,
        outcome.played_now
    )?;
    let Some(result) = &outcome.result else {
        outln!("continue with --resume")?;
        return Ok(());
    };
    for (i, p) in spec.parameters.iter().enumerate() {
        outln!(
            "{}: start {} -> tuned {}",
            p.name,
            escape::number(result.start[i]),
            escape::number(result.tuned[i])
        )?;
    }
    let r = &result.reestimate;
    out!("{}", summary_table(&r.summaries))?;
    outln!(
        "paired difference tuned - start: {:+.2} [{:+.2}, {:+.2}], Wilcoxon p = {} (n = {})",
        r.paired_mean,
        r.paired_low,
        r.paired_high,
        p_text(r.paired_p),
        r.paired_n
    )?;
    outln!("tuned controller: {}", escape::path(&out.join(TUNED_RON)))?;
    Ok(())
}
