#!/usr/bin/env bash
# The Slurm end-to-end test of .ci/run: installs Slurm from Debian's packages if needed, starts
# a one-node cluster on localhost, runs tests/slurm/tiny.ron as the job array that
# `evomcts slurm` writes, waits for the merge job, and checks that every table equals the one a
# local run of the same spec produces. Then an evolution (3 tasks) and a validation as the
# driver jobs `evomcts slurm --kind` writes, compared byte for byte with local runs, and the
# fault test: one task of a step killed, a second driver refused by the lock, the resubmitted
# driver finishing with the local run's bytes. Then a tiny replication as the job arrays and
# report job `evomcts slurm --kind replicate` writes, and the ES study's runner in its Slurm
# form, both compared with local runs; and a tiny portfolio as the study array, matrix array
# and outputs job `evomcts slurm --kind portfolio` writes, compared with a local `evomcts
# portfolio` file by file. Fails with the daemons' logs if the cluster won't start.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-target/release/evomcts}")
W=$(mktemp -d /tmp/evomcts-slurm-test.XXXXXX)
# The run folder's name holds a space, a quote and shell syntax: the scripts must quote it
# for the shell and for Slurm's own reading of #SBATCH lines.
CL="$W/clu ster's \$(x)"

logs() {
    echo "---- slurm test failed: $*" >&2
    for f in "$S/slurmctld.log" "$S/slurmd.log" "$CL"/slurm/logs/* "$CL"/*/slurm/logs/* "$CL"/rep/r/rep/slurm/logs/* "$CL"/rep/r/rep/*/*/slurm/logs/* "$CL"/study/*/slurm/logs/*; do
        [ -f "$f" ] && { echo "==== $f" >&2; tail -n 40 "$f" >&2; }
    done
    exit 1
}
# shellcheck source=tests/slurm/cluster.sh
. tests/slurm/cluster.sh
trap stop_cluster EXIT
start_cluster

"$BIN" slurm tests/slurm/tiny.ron --tasks 3 --out "$CL" --cpus-per-task 1 --mem 200M --time 00:10:00
array=$(sbatch --parsable "$CL/slurm/league.sbatch") || logs "sbatch of the array failed"
merge=$(sbatch --parsable --wait --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    "$CL/slurm/merge.sbatch") || logs "the merge job failed"
scontrol show job "$merge" | grep -q "JobState=COMPLETED" || logs "the merge job did not complete"
[ -s "$CL/slurm/logs/merge.out" ] || logs "the merge job's log is not where #SBATCH --output says"

"$BIN" league tests/slurm/tiny.ron --out "$W/local" --threads 2 --quiet >/dev/null
for f in standings.csv ratings.csv statistics.csv win_rates.csv matches.csv games.csv; do
    cmp "$W/local/$f" "$CL/$f" || logs "$f of the cluster run differs from the local run"
done
echo "slurm: 3 array tasks + merge job reproduced the local league's tables"

# The state of job $1 once it has ended.
finished() {
    for _ in $(seq 1200); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && break
        sleep 0.5
    done
    scontrol show job "$1" | grep -o "JobState=[A-Z_]*"
}
same() { # folder A, folder B, files...
    local a=$1 b=$2 f
    shift 2
    for f in "$@"; do
        cmp "$a/$f" "$b/$f" || logs "$f of $b differs from the local run's"
    done
}
EVOLVE_FILES="gen-000.ron gen-001.ron gen-002.ron logbook.csv hall_of_fame.csv champion.txt champion.ron lineage.dot"

# An evolution whose racing batches are job steps over 3 tasks.
"$BIN" evolve tests/slurm/evolve-tiny.ron --out "$W/evolve-local" --threads 2 --quiet >/dev/null
"$BIN" slurm tests/slurm/evolve-tiny.ron --kind evolve --tasks 3 --out "$CL/evolve" \
    --cpus-per-task 1 --mem 200M --time 00:10:00 >/dev/null
job=$(sbatch --parsable "$CL/evolve/slurm/run.sbatch") || logs "sbatch of the evolution failed"
finished "$job" | grep -q COMPLETED || logs "the evolution's driver job did not complete"
grep -q "worker 2/3" "$CL/evolve/slurm/logs/driver-$job.out" || logs "the steps did not run 3 tasks"
# shellcheck disable=SC2086
same "$W/evolve-local" "$CL/evolve" $EVOLVE_FILES
[ -s "$CL/evolve/steps-progress.txt" ] || logs "no progress line in the run folder"
echo "slurm: an evolution over 3 tasks wrote the local run's generations, logbook and hall of fame"

# A validation as one step over 3 tasks.
"$BIN" validate carcassonne tests/slurm/validate-tiny.ron --out "$W/validate-local" --threads 2 --quiet >/dev/null
"$BIN" slurm tests/slurm/validate-tiny.ron --kind validate --tasks 3 --out "$CL/validate" \
    --cpus-per-task 1 --mem 200M --time 00:10:00 >/dev/null
job=$(sbatch --parsable "$CL/validate/slurm/run.sbatch") || logs "sbatch of the validation failed"
finished "$job" | grep -q COMPLETED || logs "the validation's driver job did not complete"
same "$W/validate-local" "$CL/validate" games.csv summary.md
echo "slurm: a validation over 3 tasks wrote the local run's games and summary"

# Faults: kill one task of a step once it has recorded a game; a second driver is refused
# while the first runs; the resubmitted driver plays only what is missing.
F="$CL/fault"
"$BIN" evolve tests/slurm/evolve-fault.ron --out "$W/fault-local" --threads 2 --quiet >/dev/null
"$BIN" slurm tests/slurm/evolve-fault.ron --kind evolve --tasks 3 --out "$F" \
    --cpus-per-task 1 --mem 200M --time 00:10:00 >/dev/null
job=$(sbatch --parsable "$F/slurm/run.sbatch") || logs "sbatch of the fault run failed"
victim=""
for _ in $(seq 600); do
    for r in "$F"/steps/*/results-*.jsonl; do
        [ -s "$r" ] || continue
        # results-<job>.<step>-<task>-<pid>.jsonl: the pid of the worker that wrote it.
        pid=${r##*-}
        victim=${pid%.jsonl}
        break 2
    done
    sleep 0.1
done
[ -n "$victim" ] || logs "no task recorded a game"
if "$BIN" evolve tests/slurm/evolve-fault.ron --out "$F" --resume --srun --quiet 2>"$W/second.err"; then
    logs "a second driver on the run folder was not refused"
fi
grep -q "in use by another evomcts process" "$W/second.err" || logs "the second driver was refused for another reason: $(cat "$W/second.err")"
kill -KILL "$victim" || logs "the task $victim ended before it could be killed"
finished "$job" | grep -q COMPLETED && logs "the driver went on although a task was killed"
recorded=$(cat "$F"/steps/*/results-*.jsonl | grep -c '}$' || true)
[ "$recorded" -gt 0 ] || logs "the killed step kept no records"
job=$(sbatch --parsable "$F/slurm/run.sbatch") || logs "sbatch of the resubmitted driver failed"
finished "$job" | grep -q COMPLETED || logs "the resubmitted driver did not complete"
grep -q "$recorded of 36 tasks already recorded" "$F/slurm/logs/driver-$job.out" ||
    logs "the resubmitted driver did not keep the $recorded recorded games"
same "$W/fault-local" "$F" gen-000.ron gen-001.ron logbook.csv hall_of_fame.csv champion.txt
echo "slurm: a killed task lost only its unfinished games ($recorded of 36 kept); the rerun wrote the local run's bytes"

# A replication (the paper's presets made tiny, 2 master seeds) as one job array per league and
# the report's job after all of them, compared with a local `replicate` of the same options
# run from a folder of the same name: every league folder's files and the report but for what
# is measured (wall times, the Star searches' milliseconds).
P="$W/presets"
mkdir -p "$P" "$W/rep-local/r" "$CL/rep/r"
cp runs/paper/published.ron "$P/"
for preset in reward star mcts_ce extra_bandits; do
    sed -e 's/sims: 400/sims: 10/g' -e 's/depth: 2/depth: 1/g' \
        -e 's/^\( *games_per_match:\).*/\1 2,/' "runs/paper/$preset.ron" > "$P/$preset.ron"
done
REP=(--seeds 2 --presets "$P" --out rep --report rep.md --star-every 40)
(cd "$W/rep-local/r" && "$BIN" replicate "${REP[@]}" --threads 2 --quiet 2>/dev/null)
(cd "$CL/rep/r" && "$BIN" slurm --kind replicate --tasks 3 "${REP[@]}" --cpus-per-task 1 \
    --mem 200M --time 00:10:00 >/dev/null)
submitted=$(bash "$CL/rep/r/rep/slurm/submit.sh") || logs "submit.sh of the replication failed"
job=${submitted##* job }
job=${job%%:*}
finished "$job" | grep -q COMPLETED || logs "the replication's report job did not complete ($submitted)"
same_records() { # records A, records B: the same lines, in any order
    [ -s "$1" ] && [ -s "$2" ] || logs "$1 or $2 is missing"
    cmp <(sort "$1") <(sort "$2") || logs "$2 holds other records than the local run's $1"
}
unmeasured() { # report -> the report without its measured times
    grep -v '^\*\*Compute\.\*\*' "$1" |
        sed -E -e 's/^(\| `[a-z_]+` \|[^|]*\|[^|]*\|[^|]*\|)[^|]*\|/\1 |/' \
            -e '/^\| (true bounds|paper \[|narrow \[)/ s/\| [0-9.]+ \|$/|/'
}
for preset in reward star mcts_ce extra_bandits; do
    for seed in 2021 2022; do
        league="rep/$preset/seed-$seed"
        same "$W/rep-local/r/$league" "$CL/rep/r/$league" spec.ron games.csv standings.csv ratings.csv \
            statistics.csv win_rates.csv matches.csv tables.md tables.json standings.live.txt
        same_records "$W/rep-local/r/$league/games.jsonl" "$CL/rep/r/$league/games.jsonl"
        for task in 0 1 2; do
            [ -s "$CL/rep/r/$league/shard-$task-of-3/games.jsonl" ] || logs "$league: array task $task recorded no game"
        done
    done
done
[ -s "$CL/rep/r/rep/star-decisions.json" ] && [ -s "$CL/rep/r/rep.md" ] ||
    logs "the report job wrote no report or Star decisions"
cmp <(sed '/"mean_ms"/,/]/d' "$W/rep-local/r/rep/star-decisions.json") \
    <(sed '/"mean_ms"/,/]/d' "$CL/rep/r/rep/star-decisions.json") ||
    logs "the Star decisions differ from the local run's"
cmp <(unmeasured "$W/rep-local/r/rep.md") <(unmeasured "$CL/rep/r/rep.md") ||
    logs "the replication report differs from the local run's"
echo "slurm: a replication as 8 job arrays of 3 tasks and a report job wrote the local run's folders and report"

# The ES study's runner in its Slurm form, on the tiny league: the job after its array leaves
# the folder as the local league run left $W/local.
submitted=$(RESULTS="$CL/study" EVOMCTS="$BIN" TASKS=2 SLURM_OPTS="--cpus-per-task 1 --mem 200M --time 00:10:00" \
    bash runs/study/run.sh --slurm tests/slurm/tiny.ron) || logs "runs/study/run.sh --slurm failed"
job=$(echo "$submitted" | sed -n 's/.*then job \([0-9]*\) gathers.*/\1/p')
finished "$job" | grep -q COMPLETED || logs "the study's gathering job did not complete ($submitted)"
same "$W/local" "$CL/study/tiny" spec.ron standings.csv ratings.csv statistics.csv win_rates.csv matches.csv \
    games.csv tables.md tables.json
same_records "$W/local/games.jsonl" "$CL/study/tiny/games.jsonl"
echo "slurm: runs/study/run.sh --slurm left the local league's records and tables"

# A portfolio (Connect Four and Pig to 20 at 5 and 10 simulations): the games' studies as one
# job array, the matrix's columns as a second after it, the outputs job after that. Its folder
# holds every file of the local run's but what is for people (the local driver's job logs and
# timings; the scripts and Slurm's logs).
"$BIN" portfolio tests/slurm/portfolio-tiny.ron --out "$W/portfolio-local" --jobs 2 --quiet >/dev/null
"$BIN" slurm --kind portfolio tests/slurm/portfolio-tiny.ron --out "$CL/portfolio" \
    --cpus-per-task 1 --mem 200M --time 00:10:00 >/dev/null
submitted=$(bash "$CL/portfolio/slurm/submit.sh") || logs "submit.sh of the portfolio failed"
job=${submitted##*outputs job }
job=${job%%;*}
finished "$job" | grep -q COMPLETED || logs "the portfolio's outputs job did not complete ($submitted)"
for task in 0 1; do
    [ -s "$CL/portfolio/slurm/logs/study-$task.out" ] || logs "study task $task left no log"
done
diff -r -x logs -x slurm -x timings.csv "$W/portfolio-local" "$CL/portfolio" ||
    logs "the portfolio's folder differs from the local run's"
echo "slurm: a portfolio as two job arrays of 2 tasks and an outputs job wrote the local run's folder"
rm -rf "$W"
