//! `evomcts study`: the whole protocol for one game from a spec of a few lines: UCT's C_E
//! tuned at each budget, evolution seeded with tuned UCT, the champion validated against
//! tuned UCT on unseen seeds; prints `study.md`'s table.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::study::{run_study, StudyOptions, StudySpec, STUDY_MD};
use std::path::PathBuf;

#[derive(Args)]
#[command(
    mut_arg("out", |a| a.help(
        "Folder of the study [default: runs/studies/<spec name>]; each phase's run folder is \
         inside it (sims-B/tune, sims-B/evolve, sims-B/validate). One process at a time works \
         in a folder"
    )),
    mut_arg("resume", |a| a.help(
        "Continue an interrupted study in its folder (the same bytes as one never stopped)"
    )),
    mut_arg("threads", |a| a.help(
        "Worker threads of every phase [default: all cores; 1 for an OpenSpiel game], and with \
         --workers of each worker process. Results do not depend on it"
    )),
    mut_arg("stop_after", |a| a.help(
        "Stop once N phases (three per budget) are finished; continue later with --resume"
    )),
    mut_arg("quiet", |a| a.help(
        "No progress on stderr (without it: a line at each phase with the games played and an \
         ETA over the phases left, and each phase's own progress lines)"
    )),
    mut_arg("workers", |a| a.help(
        "Play every phase's games in N worker processes on this machine (`evomcts \
         step-worker`, or `python -m evomcts step-worker` from Python, where OpenSpiel's games \
         play), each on --threads threads [default: the game's default in each: all cores, one \
         for an OpenSpiel game]: an OpenSpiel study, one thread a process, then uses N cores. \
         The files are the same bytes as without it"
    ))
)]
pub struct StudyArgs {
    /// The study spec (RON), e.g. docs/study.md's example.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::LocalRunArgs,
}

pub fn run(args: StudyArgs) -> Result<()> {
    let spec = StudySpec::from_file(&args.spec)?;
    let out = args
        .run
        .out_or(|| PathBuf::from("runs/studies").join(&spec.name));
    evomcts::note!(
        "study `{}` of {}: budgets {:?}, three phases each -> {}",
        escape::terminal(&spec.name),
        spec.game.label(),
        spec.budgets,
        escape::path(&out)
    );
    let options = args.run.options(out.clone(), &spec.name)?;
    let outcome = run_study(
        &spec,
        &super::run_args::run_options!(options => StudyOptions { steps }),
    )?;
    outln!(
        "phase {} of {} finished",
        outcome.phases_done,
        outcome.phases
    )?;
    if outcome.phases_done < outcome.phases {
        outln!("continue with --resume")?;
    }
    if !outcome.rows.is_empty() {
        outln!("{}", escape::path(&out.join(STUDY_MD)))?;
    }
    for r in &outcome.rows {
        let v = &r.validation;
        outln!(
            "{} simulations: C_E {} -> tuned {}, played {}; champion `{}`; win rate {:.3} [{:.3}, {:.3}] over {} games, score difference {:+.3} [{:+.3}, {:+.3}], Wilcoxon p = {}, SPRT {}",
            r.budget,
            escape::number(r.c_e_start),
            escape::number(r.c_e_tuned),
            escape::number(r.c_e),
            r.simplified,
            v.win_rate,
            v.win_low,
            v.win_high,
            v.games,
            v.diff_mean,
            v.diff_low,
            v.diff_high,
            evomcts::validation::p_text(v.wilcoxon_p),
            r.sprt.as_ref().map_or("not run", |(d, _)| d.as_str()),
        )?;
    }
    Ok(())
}
