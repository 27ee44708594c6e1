//! A portfolio (`evomcts portfolio`) as Slurm jobs: a job array with one task per game, each
//! running that game's study job (`portfolio SPEC --only LABEL --part study`); a second job
//! array, one task per game again, for the matrix's columns (`--part matrix`), which starts
//! once every study task succeeded; and a last job, once every column succeeded, that runs the
//! portfolio's driver with `--resume`: every result file exists, so it only writes the outputs.
//! The jobs are those the local driver starts as processes, so the folder ends as a local
//! run leaves it (but `timings.csv` and the jobs' logs, which are for people).
//!
//! The spec the jobs read is the folder's own `portfolio.ron`, written (or checked against the
//! folder's) when the scripts are, so no two tasks race to write it. Every value is checked
//! or quoted as for the other scripts (`scripts`), before anything is written; a game's label
//! reaches a script only quoted for the shell, or escaped in a comment.

use super::scripts::{check_job, check_path, write_script, Checked, SlurmError, SlurmOptions};
use evomcts_portfolio::{store_spec, Part, PortfolioSpec, PORTFOLIO_RON};
use evomcts_records::escape;
use std::path::PathBuf;

/// The scripts of a portfolio's jobs.
#[derive(Clone, Debug, PartialEq)]
pub struct PortfolioScripts {
    /// `study.sbatch`: the study job array.
    pub study: String,
    /// `matrix.sbatch`: the matrix's job array (none when the spec plays no matrix).
    pub matrix: Option<String>,
    /// `outputs.sbatch`: the driver that writes the outputs.
    pub outputs: String,
    pub submit: String,
}

/// The scripts for `spec`'s jobs with the resources, folder (`opts.out`, made absolute) and
/// binary of `opts`; `opts.tasks` is not read: each array has one task per game. Checks
/// every value and writes nothing.
pub fn portfolio_scripts(
    spec: &PortfolioSpec,
    opts: &SlurmOptions,
) -> Result<PortfolioScripts, SlurmError> {
    let job = check_job(opts)?;
    let spec_file = check_path("--out", &job.out_path.join(PORTFOLIO_RON))?;
    let stem = escape::slurm_job_name(&opts.job_name, "portfolio");
    let name = escape::terminal(&spec.name);
    let labels: Vec<&str> = spec.games.iter().map(|g| g.label.as_str()).collect();
    let (q_bin, q_spec, q_out) = (
        escape::shell(&job.bin),
        escape::shell(&spec_file),
        escape::shell(&job.out),
    );
    let command = format!("{q_bin} portfolio {q_spec} --out {q_out}");
    let arrays = Arrays {
        job: &job,
        opts,
        stem: &stem,
        name: &name,
        labels: &labels,
        command: &command,
    };
    let study = arrays.script(Part::Study, "");
    let matrix = (spec.matrix.games > 0)
        .then(|| arrays.script(Part::Matrix, ", once every study task succeeded"));
    let general = if spec.general.is_some() {
        "# The spec's general formula is not a Slurm job yet: this job's driver runs it here,\n\
         # on this job's CPUs, before it writes the outputs.\n"
    } else {
        ""
    };
    let last = if matrix.is_some() { "matrix" } else { "study" };
    let sbatch = job.sbatch_lines(opts, &format!("{stem}-outputs"), 1, "outputs-%j.out");
    let outputs = format!(
        "#!/bin/bash\n\
         # Portfolio {name}: its outputs (portfolio.csv, matrix.csv, shared.csv, correlations.csv,\n\
         # portfolio.md) from the jobs' result files; runs once every {last} task succeeded.\n\
         {general}\
         {sbatch}\
         set -euo pipefail\n\
         # --resume: every job's result file is written, so the driver starts no study or matrix job.\n\
         exec {command} --resume\n",
    );
    let q_dir = escape::shell(&format!("{}/slurm", job.out));
    let mut submit = format!(
        "#!/bin/bash\n\
         # Submits the portfolio's study array, then its matrix array and its outputs job, each\n\
         # once the job before it succeeded.\n\
         set -euo pipefail\n\
         cd {q_dir}\n\
         study=$(sbatch --parsable study.sbatch)\n\
         study=${{study%%;*}}\n\
         after=$study\n"
    );
    let mut jobs = "study array $study".to_string();
    if matrix.is_some() {
        submit.push_str(
            "matrix=$(sbatch --parsable --dependency=afterok:\"$after\" --kill-on-invalid-dep=yes matrix.sbatch)\n\
             matrix=${matrix%%;*}\n\
             after=$matrix\n",
        );
        jobs.push_str(", matrix array $matrix");
    }
    submit.push_str(&format!(
        "outputs=$(sbatch --parsable --dependency=afterok:\"$after\" --kill-on-invalid-dep=yes outputs.sbatch)\n\
         outputs=${{outputs%%;*}}\n\
         echo \"{jobs}, outputs job $outputs; the portfolio will be in \"{q_out}\n"
    ));
    Ok(PortfolioScripts {
        study,
        matrix,
        outputs,
        submit,
    })
}

/// What both job arrays share.
struct Arrays<'a> {
    job: &'a Checked,
    opts: &'a SlurmOptions,
    /// The jobs' names: `evomcts-<stem>-study`, `…-matrix`.
    stem: &'a str,
    /// The portfolio's name, escaped for a comment.
    name: &'a str,
    labels: &'a [&'a str],
    /// `BIN portfolio SPEC --out OUT`, quoted.
    command: &'a str,
}

impl Arrays<'_> {
    /// The job array of `part` (`after` says when it runs): task I runs the job of the spec's
    /// I-th game.
    fn script(&self, part: Part, after: &str) -> String {
        let (name, labels, command) = (self.name, self.labels, self.command);
        let part = part.name();
        let n = labels.len();
        let last = n.saturating_sub(1);
        let sbatch = self.job.sbatch_lines(
            self.opts,
            &format!("{}-{part}", self.stem),
            1,
            &format!("{part}-%a.out"),
        );
        let mut tasks = String::new();
        let mut cases = String::new();
        for (i, label) in labels.iter().enumerate() {
            let shown = escape::terminal(label).replace('\n', " ");
            tasks.push_str(&format!("# task {i}: {shown}\n"));
            cases.push_str(&format!("    {i}) label={} ;;\n", escape::shell(label)));
        }
        cases.push_str(&format!(
            "    *) echo \"array task '${{SLURM_ARRAY_TASK_ID:-}}': the portfolio's games are tasks 0-{last}\" >&2; exit 2 ;;\n"
        ));
        format!(
            "#!/bin/bash\n\
             # Portfolio {name}: the {part} job of each of its {n} games, one per array task{after}.\n\
             {tasks}\
             {sbatch}\
             #SBATCH --array=0-{last}\n\
             set -euo pipefail\n\
             case \"${{SLURM_ARRAY_TASK_ID:-}}\" in\n\
             {cases}\
             esac\n\
             # A task whose result file is written ends at once; an interrupted one resumes.\n\
             exec {command} --only=\"$label\" --part {part} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\"\n",
        )
    }
}

/// Writes `OUT/slurm/{study.sbatch, matrix.sbatch, outputs.sbatch, submit.sh}` (OUT is
/// `opts.out` made absolute; no `matrix.sbatch` when the spec plays no matrix) and the spec
/// into OUT as `portfolio.ron`, or checks that OUT's portfolio is of this spec (a
/// resubmission resumes it), and returns the `slurm` folder. Every value is checked before
/// anything is written, the folder's spec before any script.
pub fn write_portfolio(spec: &PortfolioSpec, opts: &SlurmOptions) -> Result<PathBuf, SlurmError> {
    let scripts = portfolio_scripts(spec, opts)?;
    let out = check_job(opts)?.out_path;
    store_spec(spec, &out).map_err(|e| SlurmError::Portfolio(Box::new(e)))?;
    let dir = out.join("slurm");
    let logs = dir.join("logs");
    evomcts_records::runfs::create_folder(&logs).map_err(|source| SlurmError::Io {
        path: logs.display().to_string(),
        source,
    })?;
    let mut files = vec![("study.sbatch", &scripts.study)];
    if let Some(matrix) = &scripts.matrix {
        files.push(("matrix.sbatch", matrix));
    }
    files.extend([
        ("outputs.sbatch", &scripts.outputs),
        ("submit.sh", &scripts.submit),
    ]);
    for (name, text) in files {
        write_script(&dir.join(name), text)?;
    }
    Ok(dir)
}
