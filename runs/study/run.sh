#!/usr/bin/env bash
# Runs the ES-MCTS study (docs/es-study.md): every spec named on the command line, or all
# of runs/study/*.ron in name order, each into runs/study/results/<stem>, resumable: an
# interrupted study started again skips the games already recorded.
# Prints each run's wall time and, at the end, the total; the same lines go to
# runs/study/results/timing.txt.
# Usage (from the repository root): bash runs/study/run.sh [runs/study/r1_default.ron ...]
set -euo pipefail
bin=${EVOMCTS:-target/release/evomcts}
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then specs=(runs/study/*.ron); fi
mkdir -p runs/study/results
log=runs/study/results/timing.txt
echo "# $(date -u +%FT%TZ) threads=${THREADS:-all} $(nproc) cores" >> "$log"
study_start=$(date +%s)
for spec in "${specs[@]}"; do
    stem=$(basename "$spec" .ron)
    out=runs/study/results/$stem
    start=$(date +%s)
    "$bin" league "$spec" --out "$out" --resume --quiet ${THREADS:+--threads $THREADS} > /dev/null
    "$bin" plot formulas "$out" --out "$out/plots" > /dev/null 2>&1 || true
    echo "$stem $(( $(date +%s) - start )) s" | tee -a "$log"
done
echo "total $(( $(date +%s) - study_start )) s for ${#specs[@]} runs" | tee -a "$log"
