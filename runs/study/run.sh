#!/usr/bin/env bash
# Runs the ES-MCTS study (docs/es-study.md): every spec named on the command line, or all
# of runs/study/*.ron in name order, each into runs/study/results/<stem>, resumable: an
# interrupted study started again skips the games already recorded.
# Prints each run's wall time and, at the end, the total; the same lines go to
# runs/study/results/timing.txt.
# Usage (from the repository root): bash runs/study/run.sh [runs/study/r1_default.ron ...]
#
# With --slurm as the first argument, every spec is instead written as a Slurm job array by
# `evomcts slurm` (TASKS slices, default 8; SLURM_OPTS adds its flags, such as
# "--partition long --time 12:00:00") into the same folder and submitted (SUBMIT=0 only writes
# the scripts) with a job that runs once every slice succeeded: it gathers the slices'
# records into runs/study/results/<stem>/games.jsonl, where `evomcts league --resume` checks
# every record, plays nothing and writes the spec and tables, and it plots the formulas, so the
# folder ends as the local runner leaves it. RESULTS changes the results folder in either form.
set -euo pipefail
bin=${EVOMCTS:-target/release/evomcts}
results=${RESULTS:-runs/study/results}
slurm=0
if [ "${1:-}" = --slurm ]; then
    slurm=1
    shift
fi
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then specs=(runs/study/*.ron); fi
mkdir -p "$results"
log=$results/timing.txt
if [ "$slurm" = 1 ]; then
    tasks=${TASKS:-8}
    bin=$(realpath "$bin")
    echo "# $(date -u +%FT%TZ) submitted to Slurm, $tasks tasks per spec" >> "$log"
    for spec in "${specs[@]}"; do
        stem=$(basename "$spec" .ron)
        # shellcheck disable=SC2086
        "$bin" slurm "$spec" --tasks "$tasks" --out "$results/$stem" ${SLURM_OPTS:-} > /dev/null
        out=$(realpath "$results/$stem")
        finish=$out/slurm/finish.sbatch
        {
            echo '#!/bin/bash'
            echo "# Gathers the $tasks slices of $(printf %s "$stem" | tr -c 'A-Za-z0-9_.-' '_') into its folder and plots its formulas."
            # The merge job's resources (partition, memory, time), under another name.
            grep '^#SBATCH' "$out/slurm/merge.sbatch" | grep -v -e '--output' -e '--job-name'
            echo "#SBATCH --job-name=evomcts-study-finish"
            echo "#SBATCH --output=\"$out/slurm/logs/finish-%j.out\""
            echo 'set -euo pipefail'
            printf 'cd %q\n' "$out"
            echo "{ [ ! -f games.jsonl ] || cat games.jsonl; cat shard-*-of-$tasks/games.jsonl; } > games.jsonl.gathered"
            echo 'mv games.jsonl.gathered games.jsonl'
            printf '%q league slurm/spec.ron --out . --resume --quiet > /dev/null\n' "$bin"
            printf '%q plot formulas . --out plots > /dev/null 2>&1 || true\n' "$bin"
        } > "$finish"
        if [ "${SUBMIT:-1}" = 1 ]; then
            array=$(sbatch --parsable "$out/slurm/league.sbatch")
            last=$(sbatch --parsable --dependency=afterok:"${array%%;*}" --kill-on-invalid-dep=yes "$finish")
            echo "$stem: array job ${array%%;*}, then job ${last%%;*} gathers it into $out" | tee -a "$log"
        else
            echo "$stem: wrote $out/slurm/league.sbatch and $finish" | tee -a "$log"
        fi
    done
    exit 0
fi
echo "# $(date -u +%FT%TZ) threads=${THREADS:-all} $(nproc) cores" >> "$log"
study_start=$(date +%s)
for spec in "${specs[@]}"; do
    stem=$(basename "$spec" .ron)
    out=$results/$stem
    start=$(date +%s)
    "$bin" league "$spec" --out "$out" --resume --quiet ${THREADS:+--threads $THREADS} > /dev/null
    "$bin" plot formulas "$out" --out "$out/plots" > /dev/null 2>&1 || true
    echo "$stem $(( $(date +%s) - start )) s" | tee -a "$log"
done
echo "total $(( $(date +%s) - study_start )) s for ${#specs[@]} runs" | tee -a "$log"
