#!/usr/bin/env bash
# Runs the ES-MCTS study (docs/es-study.md): every spec named on the command line, or all
# of runs/study/*.ron in name order, each into runs/study/results/<stem>, resumable.
# Usage (from the repository root): bash runs/study/run.sh [runs/study/r1_default.ron ...]
set -euo pipefail
bin=${EVOMCTS:-target/release/evomcts}
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then specs=(runs/study/*.ron); fi
for spec in "${specs[@]}"; do
    stem=$(basename "$spec" .ron)
    out=runs/study/results/$stem
    start=$(date +%s)
    "$bin" league "$spec" --out "$out" --resume --quiet ${THREADS:+--threads $THREADS} > /dev/null
    "$bin" plot formulas "$out" --out "$out/plots" > /dev/null 2>&1 || true
    echo "$stem $(( $(date +%s) - start )) s"
done
