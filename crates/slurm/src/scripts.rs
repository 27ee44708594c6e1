//! Slurm batch scripts. A league as a job array: K tasks, each playing one slice of the games
//! (`league --shard I/K --resume`), a merge job that runs after all of them succeeded (`table`
//! over the slices' folders), and a script that submits both (`write_slurm`); the job arrays of
//! a set of leagues and one job after all of them (`write_league_set`); one driver job over an
//! allocation for a run whose games are job steps (`write_allocation`).
//!
//! Every value that reaches a script is either checked against what Slurm accepts (time, memory,
//! partition: a few safe characters) or quoted for the shell; control characters are refused
//! everywhere, and text that only informs (the league's name) is escaped into a comment. So no
//! spec name, file name or flag can add a command to a script.

use evomcts_league::schedule::schedule;
use evomcts_league::spec::LeagueSpec;
use evomcts_records::escape;
use std::path::{Path, PathBuf};

/// What the scripts are written for.
#[derive(Clone, Debug)]
pub struct SlurmOptions {
    /// Array tasks, each playing one slice of the games.
    pub tasks: usize,
    pub cpus_per_task: usize,
    /// Memory per task (Slurm's `--mem`), e.g. `2G`.
    pub mem: String,
    /// Wall-time limit per task (Slurm's `--time`), e.g. `04:00:00`.
    pub time: String,
    pub partition: Option<String>,
    /// The evomcts binary the jobs run.
    pub bin: PathBuf,
    /// The run folder: slices go to OUT/shard-I-of-K, the merged tables to OUT.
    pub out: PathBuf,
    /// Names the jobs (`evomcts-<job_name>`); characters other than letters, digits, `_`, `-`
    /// and `.` become `_`.
    pub job_name: String,
}

/// The most CPUs per task a script may ask for.
pub const MAX_CPUS_PER_TASK: usize = 1024;
/// The most tasks one driver's allocation may ask for.
pub const MAX_ALLOCATION_TASKS: usize = 100_000;

#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error("{flag} {value:?}: {message}")]
    Invalid {
        flag: &'static str,
        value: String,
        message: String,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// The run folder cannot take a portfolio's jobs (it holds another spec's portfolio, or a
    /// driver works in it).
    #[error(transparent)]
    Portfolio(Box<evomcts_portfolio::PortfolioError>),
}

/// The three scripts' text.
#[derive(Clone, Debug, PartialEq)]
pub struct SlurmScripts {
    pub league: String,
    pub merge: String,
    pub submit: String,
}

fn invalid(flag: &'static str, value: &str, message: impl Into<String>) -> SlurmError {
    SlurmError::Invalid {
        flag,
        value: value.to_string(),
        message: message.into(),
    }
}

/// `Ok` when `ok`, else the error naming `flag`, its `value` and what was `expected`.
fn require(ok: bool, flag: &'static str, value: &str, expected: &str) -> Result<(), SlurmError> {
    if ok {
        Ok(())
    } else {
        Err(invalid(flag, value, expected))
    }
}

/// Slurm's time formats: minutes, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`, `D-HH:MM:SS`, or
/// `UNLIMITED`/`INFINITE`.
fn check_time(time: &str) -> Result<(), SlurmError> {
    let unlimited = matches!(time.to_ascii_uppercase().as_str(), "UNLIMITED" | "INFINITE");
    let shaped = !time.is_empty()
        && time.len() <= 20
        && time.starts_with(|c: char| c.is_ascii_digit())
        && time
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == '-');
    require(
        unlimited || shaped,
        "--time",
        time,
        "expected a Slurm time such as 90, 04:00:00 or 2-00:00:00",
    )
}

/// A whole number with an optional unit K, M, G or T.
fn check_mem(mem: &str) -> Result<(), SlurmError> {
    let digits = mem.trim_end_matches(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
    let unit_len = mem.len() - digits.len();
    let ok = !digits.is_empty()
        && digits.len() <= 15
        && unit_len <= 1
        && digits.chars().all(|c| c.is_ascii_digit());
    require(ok, "--mem", mem, "expected a size such as 2G, 500M or 4096")
}

/// Partition names (a comma-separated list): letters, digits, `_`, `-`, `.`.
fn check_partition(partition: &str) -> Result<(), SlurmError> {
    let ok = !partition.is_empty()
        && partition.len() <= 200
        && partition
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ','));
    require(
        ok,
        "--partition",
        partition,
        "expected partition names of letters, digits, `_`, `-`, `.` (comma-separated)",
    )
}

/// A path that goes into a script: no control characters (a line break would end the line it
/// is quoted on in an `#SBATCH` directive, which is not a shell line).
pub(super) fn check_path(flag: &'static str, path: &Path) -> Result<String, SlurmError> {
    let text = path
        .to_str()
        .ok_or_else(|| invalid(flag, &path.display().to_string(), "must be UTF-8"))?;
    if text.chars().any(|c| c.is_control()) {
        return Err(invalid(flag, text, "must not hold control characters"));
    }
    Ok(text.to_string())
}

/// The run folder as it may appear in an `#SBATCH --output` directive, which Slurm reads
/// itself: double quotes group (so spaces are fine), `\` escapes and `%` starts a file-name
/// pattern, so those three are refused.
fn check_sbatch_path(out: &str) -> Result<(), SlurmError> {
    if out.contains(['"', '%', '\\']) {
        return Err(invalid(
            "--out",
            out,
            "the run folder's path must not hold `\"`, `%` or `\\` (Slurm reads them in #SBATCH lines)",
        ));
    }
    Ok(())
}

/// Checks the CPUs, time, memory and partition of `opts`; returns the partition's `#SBATCH`
/// line (empty for the cluster's default).
fn check_resources(opts: &SlurmOptions) -> Result<String, SlurmError> {
    if opts.cpus_per_task == 0 || opts.cpus_per_task > MAX_CPUS_PER_TASK {
        return Err(invalid(
            "--cpus-per-task",
            &opts.cpus_per_task.to_string(),
            format!("must be between 1 and {MAX_CPUS_PER_TASK}"),
        ));
    }
    check_time(&opts.time)?;
    check_mem(&opts.mem)?;
    let partition = match &opts.partition {
        Some(p) => {
            check_partition(p)?;
            format!("#SBATCH --partition={p}\n")
        }
        None => String::new(),
    };
    Ok(partition)
}

/// What a job's script takes from its options, checked.
pub(super) struct Checked {
    /// The partition's `#SBATCH` line (empty for the cluster's default).
    partition: String,
    /// The run folder, absolute.
    pub(super) out_path: PathBuf,
    /// The same as text, fit for an `#SBATCH --output` line.
    pub(super) out: String,
    pub(super) bin: String,
}

impl Checked {
    /// The `#SBATCH` lines of job `evomcts-<name>` on `tasks` tasks with the resources of
    /// `opts` (the options this was checked from), its log `OUT/slurm/logs/<log>`.
    pub(super) fn sbatch_lines(
        &self,
        opts: &SlurmOptions,
        name: &str,
        tasks: usize,
        log: &str,
    ) -> String {
        let (cpus, mem, time) = (opts.cpus_per_task, &opts.mem, &opts.time);
        let (partition, out) = (&self.partition, &self.out);
        format!(
            "#SBATCH --job-name=evomcts-{name}\n\
             #SBATCH --ntasks={tasks}\n\
             #SBATCH --cpus-per-task={cpus}\n\
             #SBATCH --mem={mem}\n\
             #SBATCH --time={time}\n\
             {partition}\
             #SBATCH --output=\"{out}/slurm/logs/{log}\"\n"
        )
    }
}

/// Checks the resources, the run folder (made absolute) and the binary of `opts`.
pub(super) fn check_job(opts: &SlurmOptions) -> Result<Checked, SlurmError> {
    let partition = check_resources(opts)?;
    check_path("--out", &opts.out)?;
    let out_path = std::path::absolute(&opts.out).map_err(|source| SlurmError::Io {
        path: opts.out.display().to_string(),
        source,
    })?;
    let out = check_path("--out", &out_path)?;
    check_sbatch_path(&out)?;
    let bin = check_path("--bin", &opts.bin)?;
    Ok(Checked {
        partition,
        out_path,
        out,
        bin,
    })
}

/// The scripts for `spec` (whose frozen copy the jobs read from `spec_copy`).
pub fn slurm_scripts(
    spec: &LeagueSpec,
    spec_copy: &Path,
    opts: &SlurmOptions,
) -> Result<SlurmScripts, SlurmError> {
    let games = schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
    let k = opts.tasks;
    if k == 0 || k > games {
        return Err(invalid(
            "--tasks",
            &k.to_string(),
            format!("must be between 1 and the league's {games} games"),
        ));
    }
    let partition = check_resources(opts)?;
    let out = check_path("--out", &opts.out)?;
    let bin = check_path("--bin", &opts.bin)?;
    let spec_copy = check_path("--out", spec_copy)?;
    check_sbatch_path(&out)?;
    let logs = format!("{out}/slurm/logs");
    let stem = escape::slurm_job_name(&opts.job_name, "league");
    let name = escape::terminal(&spec.name);
    let (time, mem, cpus) = (&opts.time, &opts.mem, opts.cpus_per_task);
    let (q_bin, q_spec, q_out) = (
        escape::shell(&bin),
        escape::shell(&spec_copy),
        escape::shell(&out),
    );
    let last = k - 1;
    let league = format!(
        "#!/bin/bash\n\
         # League {name}: {games} games in {k} slices, one per array task.\n\
         #SBATCH --job-name=evomcts-{stem}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --time={time}\n\
         {partition}\
         #SBATCH --output=\"{logs}/shard-%a.out\"\n\
         set -euo pipefail\n\
         # --resume: a requeued task continues its slice instead of starting again.\n\
         exec {q_bin} league {q_spec} --shard \"$SLURM_ARRAY_TASK_ID/{k}\" \\\n    \
         --out {q_out}/shard-\"$SLURM_ARRAY_TASK_ID\"-of-{k} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --resume --quiet\n",
    );
    let merge = format!(
        "#!/bin/bash\n\
         # Merges the {k} slices of league {name} into its tables; runs after every slice succeeded.\n\
         #SBATCH --job-name=evomcts-{stem}-merge\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --time=00:30:00\n\
         {partition}\
         #SBATCH --output=\"{logs}/merge.out\"\n\
         set -euo pipefail\n\
         exec {q_bin} table {q_out}/shard-*-of-{k} --out {q_out}\n",
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submits the league's job array and its merge job.\n\
         set -euo pipefail\n\
         cd {q_dir}\n\
         array=$(sbatch --parsable league.sbatch)\n\
         merge=$(sbatch --parsable --dependency=afterok:\"${{array%%;*}}\" --kill-on-invalid-dep=yes merge.sbatch)\n\
         echo \"array job $array, merge job $merge; tables will be in \"{q_out}\n",
        q_dir = escape::shell(&format!("{out}/slurm")),
    );
    Ok(SlurmScripts {
        league,
        merge,
        submit,
    })
}

/// Writes `OUT/slurm/{spec.ron, league.sbatch, merge.sbatch, submit.sh}` (OUT made absolute)
/// and returns the `slurm` folder. The jobs read the frozen spec copy, which holds the content
/// of every file the spec named, so editing those files later cannot mix specs, and no job
/// depends on its working directory. Every value is checked before any folder is made, so a
/// refused value leaves nothing behind.
pub fn write_slurm(spec: &LeagueSpec, opts: &SlurmOptions) -> Result<PathBuf, SlurmError> {
    let io = |path: &Path, source| SlurmError::Io {
        path: path.display().to_string(),
        source,
    };
    check_path("--out", &opts.out)?;
    let out = std::path::absolute(&opts.out).map_err(|e| io(&opts.out, e))?;
    let dir = out.join("slurm");
    let spec_copy = dir.join("spec.ron");
    let scripts = slurm_scripts(
        spec,
        &spec_copy,
        &SlurmOptions {
            out: out.clone(),
            ..opts.clone()
        },
    )?;
    let logs = dir.join("logs");
    evomcts_records::runfs::create_folder(&logs).map_err(|e| io(&logs, e))?;
    evomcts_records::runfs::write_atomically(&spec_copy, spec.to_ron().as_bytes())
        .map_err(|e| io(&spec_copy, e))?;
    for (name, text) in [
        ("league.sbatch", &scripts.league),
        ("merge.sbatch", &scripts.merge),
        ("submit.sh", &scripts.submit),
    ] {
        write_script(&dir.join(name), text)?;
    }
    Ok(dir)
}

/// One driver job over an allocation of `opts.tasks` tasks for a run whose games are played as
/// job steps (`evolve`, `validate carcassonne`, `validate sweep` with `--srun`): the script that
/// runs `BIN <command…> SPEC --out OUT --resume --srun`, and `submit.sh`. `spec_text` is the
/// run's spec as written to its frozen copy; `what` describes the run in the script's comment.
/// Every value is checked as for a league's scripts, before any folder is made.
pub fn write_allocation(
    opts: &SlurmOptions,
    spec_text: &str,
    what: &str,
    command: &[&str],
) -> Result<PathBuf, SlurmError> {
    let io = |path: &Path, source| SlurmError::Io {
        path: path.display().to_string(),
        source,
    };
    if opts.tasks == 0 || opts.tasks > MAX_ALLOCATION_TASKS {
        return Err(invalid(
            "--tasks",
            &opts.tasks.to_string(),
            format!("must be between 1 and {MAX_ALLOCATION_TASKS}"),
        ));
    }
    let job = check_job(opts)?;
    let (out_path, out) = (&job.out_path, &job.out);
    let dir = out_path.join("slurm");
    let spec_copy = dir.join("spec.ron");
    let q_spec = escape::shell(&check_path("--out", &spec_copy)?);
    let (q_bin, q_out) = (escape::shell(&job.bin), escape::shell(out));
    let stem = escape::slurm_job_name(&opts.job_name, "run");
    let what = escape::terminal(what).replace('\n', " ");
    let k = opts.tasks;
    let sbatch = job.sbatch_lines(opts, &stem, k, "driver-%j.out");
    let words: Vec<String> = command.iter().map(|w| escape::shell(w)).collect();
    let words = words.join(" ");
    let script = format!(
        "#!/bin/bash\n\
         # {what}: one driver; the games are played as job steps over the allocation's {k} tasks.\n\
         {sbatch}\
         set -euo pipefail\n\
         # --resume: a resubmitted or requeued driver continues the run, and plays only the games\n\
         # of an interrupted step that have no record yet.\n\
         exec {q_bin} {words} {q_spec} --out {q_out} --resume --srun\n",
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submits the driver job.\n\
         set -euo pipefail\n\
         cd {q_dir}\n\
         job=$(sbatch --parsable run.sbatch)\n\
         echo \"driver job $job; the run is in \"{q_out}\n",
        q_dir = escape::shell(&format!("{out}/slurm")),
    );
    let logs = dir.join("logs");
    evomcts_records::runfs::create_folder(&logs).map_err(|e| io(&logs, e))?;
    evomcts_records::runfs::write_atomically(&spec_copy, spec_text.as_bytes())
        .map_err(|e| io(&spec_copy, e))?;
    for (name, text) in [("run.sbatch", &script), ("submit.sh", &submit)] {
        write_script(&dir.join(name), text)?;
    }
    Ok(dir)
}

/// The job that runs once every league of a set succeeded (for `evomcts replicate`, its
/// report).
#[derive(Clone, Debug)]
pub struct FinalJob {
    /// Names the job (`evomcts-<name>`), its script (`<name>.sbatch`) and its log.
    pub name: String,
    /// What the job does, for the script's comment.
    pub what: String,
    /// The command after the binary, each a single shell word in the script.
    pub args: Vec<String>,
    /// The folder the command runs in: its relative paths mean what they meant there.
    pub cwd: PathBuf,
}

/// Writes the job array of every league of a set (`write_slurm` with each league's options:
/// `OUT_i/slurm/`), then, in `OUT/slurm/` (`opts.out` made absolute), `<name>.sbatch`, a job
/// on one task of `opts` that runs `BIN <args…>` in `cwd`, and `submit.sh`, which submits every
/// array and then that job with `--dependency=afterok:` on all of them. Returns `OUT/slurm`.
/// Every value of every script is checked before any folder is made.
pub fn write_league_set(
    leagues: &[(LeagueSpec, SlurmOptions)],
    final_job: &FinalJob,
    opts: &SlurmOptions,
) -> Result<PathBuf, SlurmError> {
    let io = |path: &Path, source| SlurmError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut arrays = Vec::with_capacity(leagues.len());
    for (spec, league) in leagues {
        check_path("--out", &league.out)?;
        let out = std::path::absolute(&league.out).map_err(|e| io(&league.out, e))?;
        let dir = out.join("slurm");
        let checked = SlurmOptions {
            out,
            ..league.clone()
        };
        slurm_scripts(spec, &dir.join("spec.ron"), &checked)?;
        arrays.push(check_path("--out", &dir.join("league.sbatch"))?);
    }
    let job = check_job(opts)?;
    let cwd = check_path("the working folder", &final_job.cwd)?;
    for arg in &final_job.args {
        if arg.chars().any(|c| c.is_control()) {
            return Err(invalid(
                "the final job's arguments",
                arg,
                "must not hold control characters",
            ));
        }
    }
    let name = escape::slurm_job_name(&final_job.name, "final");
    let what = escape::terminal(&final_job.what).replace('\n', " ");
    let words: Vec<String> = final_job.args.iter().map(|w| escape::shell(w)).collect();
    let sbatch = job.sbatch_lines(opts, &name, 1, &format!("{name}-%j.out"));
    let script = format!(
        "#!/bin/bash\n\
         # {what}: runs once the job arrays of all {n} leagues succeeded.\n\
         {sbatch}\
         set -euo pipefail\n\
         cd {q_cwd}\n\
         exec {q_bin} {words}\n",
        n = leagues.len(),
        q_cwd = escape::shell(&cwd),
        q_bin = escape::shell(&job.bin),
        words = words.join(" "),
    );
    let dir = job.out_path.join("slurm");
    let script_path = dir.join(format!("{name}.sbatch"));
    let mut submit = format!(
        "#!/bin/bash\n\
         # Submits the job array of each of the {n} leagues, then job {name} once all of them succeeded.\n\
         set -euo pipefail\n\
         submit() {{ local id; id=$(sbatch --parsable \"$@\") || return 1; echo \"${{id%%;*}}\"; }}\n\
         after=\"\"\n",
        n = leagues.len(),
    );
    for array in &arrays {
        submit.push_str(&format!("after+=\":$(submit {})\"\n", escape::shell(array)));
    }
    submit.push_str(&format!(
        "last=$(submit --dependency=afterok\"$after\" --kill-on-invalid-dep=yes {})\n\
         echo \"{n} job arrays (${{after#:}}), then job $last: {name}\"\n",
        escape::shell(&check_path("--out", &script_path)?),
        n = leagues.len(),
    ));
    for (spec, league) in leagues {
        write_slurm(spec, league)?;
    }
    let logs = dir.join("logs");
    evomcts_records::runfs::create_folder(&logs).map_err(|e| io(&logs, e))?;
    write_script(&script_path, &script)?;
    write_script(&dir.join("submit.sh"), &submit)?;
    Ok(dir)
}

/// Writes an executable script.
pub(super) fn write_script(path: &Path, text: &str) -> Result<(), SlurmError> {
    let io = |source| SlurmError::Io {
        path: path.display().to_string(),
        source,
    };
    evomcts_records::runfs::write_atomically(path, text.as_bytes()).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
    }
    Ok(())
}

/// What to run to submit the scripts in `dir` (the folder `write_slurm` returns), for people:
/// every path a single shell word, so pasting a line runs that command and nothing else.
pub fn submit_hint(dir: &Path) -> String {
    let file = |name: &str| escape::shell(&dir.join(name).to_string_lossy());
    format!(
        "submit with:\n    bash {}\nor by hand:\n    sbatch --parsable {}   # prints the array job id\n    sbatch --dependency=afterok:<id> {}\n",
        file("submit.sh"),
        file("league.sbatch"),
        file("merge.sbatch")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_values_are_checked() {
        assert!(check_time("04:00:00").is_ok() && check_time("2-00:00:00").is_ok());
        assert!(check_time("90").is_ok() && check_time("unlimited").is_ok());
        assert!(check_time("1:00\ntouch pwned").is_err());
        assert!(check_time("1:00 ; rm").is_err());
        assert!(check_mem("2G").is_ok() && check_mem("4096").is_ok());
        assert!(check_mem("2G\nx").is_err() && check_mem("G").is_err());
        assert!(check_partition("debug,long").is_ok());
        assert!(check_partition("debug\ntouch").is_err());
        assert_eq!(escape::slurm_job_name("a b\n$(x)", "league"), "a_b___x_");
    }
}
