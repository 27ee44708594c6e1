//! `evomcts evolve`: runs or resumes an evolution of one reusable selection formula and
//! prints the champion: whether it beat the reference (its 95% interval against the
//! reference's fitness) and, for a run on games, the whole controller it was evolved as,
//! ready to paste into a league spec.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::escape;
use evomcts::evolve::independent::{champion, run_folder};
use evomcts::evolve::tournament::{self, TournamentSpec};
use evomcts::evolve::{
    run_evolution, run_independent, EvolveSpec, IndependentOptions, Member, Standing,
};
use evomcts::search::mcts::Selection;
use evomcts::search::ControllerSpec;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    mut_arg("stop_after", |a| a.help(
        "Stop once generation N is written (generation 0 is the initial population); continue \
         later with --resume"
    )),
    mut_arg("quiet", |a| a.help(
        "No progress on stderr. Without it, a line per generation (best and mean fitness, the \
         champion, the run's ETA) and, at most every 10 s within a generation, the games (or \
         bandit runs) evaluated of its total with the generation's and the run's ETA"
    ))
)]
pub struct EvolveArgs {
    /// The evolution spec (RON), e.g. runs/evolve/bandit.ron.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::RunArgs,
    /// Run K independent runs of the spec into OUT/run-1 … OUT/run-K (run i's master seed
    /// derived from the spec's and i), then a tournament of their champions and the seed formula
    /// on fresh seeds that crowns one: OUT/tournament.csv, OUT/tournament.md, OUT/champion.txt.
    /// At most 64.
    #[arg(long, value_name = "K")]
    runs: Option<usize>,
    /// With --runs: the seeds every tournament entrant plays at least (racing gives the
    /// entrants still in up to four times as many) [default: 200].
    #[arg(long, value_name = "N", requires = "runs")]
    tournament_samples: Option<usize>,
}

pub fn run(args: EvolveArgs) -> Result<()> {
    let spec = EvolveSpec::from_file(&args.spec)?;
    let out = args
        .run
        .out_or(|| PathBuf::from("populations").join(&spec.name));
    if let Some(k) = args.runs {
        return independent(&spec, k, out, &args);
    }
    if spec.enumerate.is_some() {
        return enumeration(&spec, out, &args);
    }
    evomcts::note!(
        "evolve `{}`: ({}{}{})-ES, {} generations, {} samples per evaluation -> {}",
        escape::terminal(&spec.name),
        spec.strategy.mu,
        if spec.strategy.plus { " + " } else { ", " },
        spec.strategy.lambda,
        spec.strategy.generations,
        spec.noise.samples,
        escape::path(&out)
    );
    let outcome = run_evolution(&spec, &args.run.options(out.clone(), &spec.name)?)?;
    let last = &outcome.last;
    if let Some(g) = outcome.resumed_from {
        evomcts::note!("resumed after generation {g}");
    }
    outln!(
        "{} generations (gen-000 to gen-{:03}: the first population and {} of the spec's {} generations of evolution); {} fitness samples spent",
        last.generation + 1,
        last.generation,
        last.generation,
        spec.strategy.generations,
        last.samples_spent
    )?;
    outln!(
        "reference #{} {}: {}",
        last.reference.id,
        last.reference.fitness,
        last.reference.formula
    )?;
    outln!(
        "champion  #{} {}: {}",
        last.champion.id,
        last.champion.fitness,
        last.champion.formula
    )?;
    // A mix of games: each one's fitness on every game, on the samples that played it.
    for (who, member) in [("reference", &last.reference), ("champion", &last.champion)] {
        for (games, e) in spec.fitness.games().iter().zip(&member.per_game) {
            outln!("  {who} on {}: {e}", games.game.label())?;
        }
    }
    if let Some((rows, crowned)) = &outcome.reestimated {
        outln!(
            "re-estimate on fresh samples ({}):",
            out.join(evomcts::evolve::reestimate::REESTIMATE_CSV)
                .display()
        )?;
        for (i, row) in rows.iter().enumerate() {
            outln!(
                "  {} #{} evolution {} -> fresh {}: {}",
                if i == *crowned { "*" } else { " " },
                row.member.id,
                row.member.fitness,
                row.fresh,
                row.member.formula
            )?;
        }
        let crowned = &rows[*crowned].member;
        outln!(
            "champion by the re-estimate: #{}: {}",
            crowned.id,
            crowned.formula
        )?;
    }
    outln!("{}", verdict(&last.champion, &last.reference))?;
    let champion_file = out.join("champion.txt");
    // The formula file is what a league reads, so the controller printed is its text.
    let formula = evomcts::runfs::read_capped_text(
        &champion_file,
        evomcts::runfs::MAX_SPEC_FILE_BYTES,
        "a formula file",
    )
    .with_context(|| champion_file.display().to_string())?;
    let controllers = champion_controllers(&spec, formula.trim());
    for (game, controller) in &controllers {
        outln!(
            "the champion as the controller it was evolved as ({game}; paste into a league spec):\n  {controller}"
        )?;
    }
    if controllers.is_empty() {
        outln!(
            "use it in a league: Mcts(selection: FormulaFile({:?}))",
            champion_file.display().to_string()
        )?;
    }
    Ok(())
}

/// `--runs K`: the K runs and their tournament, and what it crowned.
fn independent(spec: &EvolveSpec, k: usize, out: PathBuf, args: &EvolveArgs) -> Result<()> {
    evomcts::note!(
        "evolve `{}` --runs {k}: {k} independent runs, then a tournament -> {}",
        escape::terminal(&spec.name),
        escape::path(&out)
    );
    let options = args.run.options(out.clone(), &spec.name)?;
    let outcome = run_independent(
        spec,
        k,
        &super::run_args::run_options!(options => IndependentOptions {
            srun,
            tournament: args
                .tournament_samples
                .map_or_else(TournamentSpec::default, TournamentSpec::with_samples),
        }),
    )?;
    for (i, run) in outcome.runs.iter().enumerate() {
        outln!(
            "run {} ({}): generation {} of {}; champion {}",
            i + 1,
            run_folder(&out, i + 1).display(),
            run.last.generation,
            spec.strategy.generations,
            champion(run)
        )?;
    }
    let Some(crowned) = outcome.tournament else {
        outln!("the runs are not finished: no tournament yet; continue with --resume")?;
        return Ok(());
    };
    for (i, s) in crowned.standings.iter().enumerate() {
        let versus = s
            .against_crowned
            .as_ref()
            .map_or("crowned".to_string(), |v| {
                format!(
                    "minus the crowned {:+.4} [{:+.4}, {:+.4}], Wilcoxon p = {:.3}, Holm p = {:.3}",
                    v.difference.mean, v.difference.low, v.difference.high, v.p, v.p_holm
                )
            });
        outln!(
            "  {} {} ({}): {}; {versus}: {}",
            if i == crowned.crowned { "*" } else { " " },
            i + 1,
            s.entrant.sources.join(", "),
            s.fitness,
            s.entrant.formula
        )?;
    }
    outln!(
        "crowned by the tournament ({}): {}",
        out.join(tournament::TOURNAMENT_MD).display(),
        crowned.formula()
    )?;
    Ok(())
}

/// Whether the champion beat the reference (the seed formula), on evolution's own samples:
/// its 95% interval against the reference's fitness.
fn verdict(champion: &Member, reference: &Member) -> String {
    if champion.id == reference.id {
        return "the champion is the reference itself (the seed formula): evolution found nothing better".into();
    }
    let (c, r) = (&champion.fitness, reference.fitness.mean);
    let interval = format!("{:.3} [{:.3}, {:.3}]", c.mean, c.low, c.high);
    match c.against(r) {
        Standing::Above => format!(
            "the champion beat the reference: {interval} lies above the reference's {r:.3} (95% interval, evolution's own samples; validate it on unseen ones)"
        ),
        Standing::Below => format!(
            "the champion did NOT beat the reference: {interval} lies below the reference's {r:.3} (95% interval, evolution's own samples)"
        ),
        Standing::Undecided => format!(
            "the champion is not shown to beat the reference: {interval} holds the reference's {r:.3} (95% interval, evolution's own samples)"
        ),
    }
}

/// For a run on games, each game (one, or every game of a mix) and the champion as the
/// controller it was evolved as there: the game's candidate settings (simulations, C_E,
/// reward, final move, …) with the formula as its selection, in the spec files' RON; none
/// for a bandit run.
fn champion_controllers(spec: &EvolveSpec, formula: &str) -> Vec<(String, String)> {
    spec.fitness
        .games()
        .iter()
        .map(|games| {
            let mut settings = games.candidate.clone();
            settings.selection = Selection::Formula(formula.to_string());
            let text = evomcts::runfs::ron_options()
                .to_string(&ControllerSpec::Mcts(settings))
                .expect("a controller serialises");
            (games.game.label(), text)
        })
        .collect()
}

/// An enumeration run (`enumerate` in the spec): the space, the race, the final race and the
/// champion, as `enumeration.md` has them.
fn enumeration(spec: &EvolveSpec, out: PathBuf, args: &EvolveArgs) -> Result<()> {
    use evomcts::evolve::enumeration::run_enumeration;
    let r = run_enumeration(spec, &args.run.options(out.clone(), &spec.name)?)?;
    outln!(
        "{} trees written, {} forms, {} classes, {} candidates; {} raced in {} rounds; samples: race {}, fits {}, final race {}",
        r.written,
        r.forms,
        r.classes,
        r.candidates,
        r.raced,
        r.rounds.len(),
        r.samples[0],
        r.samples[1],
        r.samples[2]
    )?;
    outln!("seed      {}: {}", r.seed, spec.seed_formula)?;
    for (e, row) in &r.finals {
        let f = &r.finalists[row.candidate];
        outln!(
            "finalist  {}: {} (candidate {}{}), against the seed {:+.4}, Holm p {:.4}{}",
            e,
            f.formula,
            f.candidate,
            if f.fitted { ", fitted" } else { "" },
            row.mean_difference,
            row.p_holm,
            if row.better { ": better" } else { "" }
        )?;
    }
    outln!("champion: {}", r.champion)?;
    outln!(
        "the run's files: {}",
        escape::path(&out.join(evomcts::evolve::enumeration_files::SUMMARY_MD))
    )?;
    for (game, controller) in champion_controllers(spec, &r.champion.to_string()) {
        outln!("the champion as a controller ({game}):\n  {controller}")?;
    }
    Ok(())
}
