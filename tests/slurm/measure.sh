#!/usr/bin/env bash
# Measures what docs/slurm.md's wall-time model needs, on the one-node cluster of
# tests/slurm/cluster.sh (needs root; not part of CI):
#   1. CPU time per game at the budgets of the evolution presets: the first step of each preset
#      (its work written by a driver whose `srun` stands in and fails), a quarter of it played
#      by `evomcts step-worker` on one thread under /usr/bin/time, REPEATS times;
#   2. the overhead of a step: `srun` over 3 tasks of an allocation starting `evomcts
#      step-worker` on a step with nothing left to play, 10 times; and `srun true` beside it;
#   3. real steps: tests/slurm/evolve-tiny.ron as a driver job over 3 tasks, its per-step lines
#      (tasks, task time recorded, the step's and the merge's wall time).
# Prints one line per measurement; every timing is printed raw, with the median.
# Usage: bash tests/slurm/measure.sh [BIN] [REPEATS] [all|cpu|cluster]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-target/release/evomcts}")
REPEATS=${2:-3}
MODE=${3:-all}
W=$(mktemp -d /tmp/evomcts-slurm-measure.XXXXXX)
logs() {
    echo "---- measurement failed: $*" >&2
    exit 1
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# shellcheck source=tests/slurm/cluster.sh
. tests/slurm/cluster.sh
trap stop_cluster EXIT

# A stand-in srun that plays nothing: the driver writes the first step's work and stops.
mkdir -p "$W/nosrun"
printf '#!/bin/sh\nexit 1\n' > "$W/nosrun/srun"
chmod +x "$W/nosrun/srun"
first_step() { # preset, folder -> the step folder
    PATH="$W/nosrun:$PATH" "$BIN" evolve "$1" --out "$2" --srun --quiet >/dev/null 2>&1 || true
    ls -d "$2"/steps/*/
}

echo "machine: $(nproc) vCPU, $(lscpu | sed -n 's/^Model name: *//p'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for preset in carcassonne-uct100 carcassonne-knowledge100 carcassonne-knowledge400; do
    step=$(first_step "runs/evolve/$preset.ron" "$W/$preset")
    [ "$MODE" = cluster ] && continue
    tasks=$(tr -cd ',' < "$step/todo.json" | wc -c)
    tasks=$((tasks + 1))
    mine=$(( (tasks + 3) / 4 ))
    : > "$W/cpu"
    for _ in $(seq "$REPEATS"); do
        rm -f "$step"/results-*
        /usr/bin/time -f "%U %S" -o "$W/t" "$BIN" step-worker "$step" --worker 0/4 --threads 1 2>/dev/null
        awk -v g=$((2 * mine)) '{printf "%.4f\n", ($1 + $2) / g}' "$W/t" >> "$W/cpu"
    done
    echo "cpu per game, $preset: median $(median < "$W/cpu") s over $REPEATS runs of $((2 * mine)) games ($(tr '\n' ' ' < "$W/cpu"))"
done

[ "$MODE" = cpu ] && { rm -rf "$W"; exit 0; }
start_cluster
step=$(ls -d "$W/carcassonne-uct100"/steps/*/)
echo "[]" > "$step/todo.json"
cat > "$W/overhead.sbatch" <<SBATCH
#!/bin/bash
#SBATCH --ntasks=3
#SBATCH --cpus-per-task=1
#SBATCH --output=$W/overhead.out
for i in \$(seq 10); do
    /usr/bin/time -f "empty-step %e" srun --kill-on-bad-exit=0 --cpus-per-task=1 "$BIN" step-worker "$step" 2>&1 | grep empty-step
    /usr/bin/time -f "srun-true %e" srun --cpus-per-task=1 true 2>&1 | grep srun-true
done
SBATCH
sbatch --wait "$W/overhead.sbatch" >/dev/null || logs "the overhead job failed"
for what in empty-step srun-true; do
    values=$(grep "^$what" "$W/overhead.out" | awk '{print $2}')
    echo "$what over 3 tasks: median $(echo "$values" | median) s wall over 10 ($(echo "$values" | tr '\n' ' '))"
done

# Real steps: the tiny evolution as a driver job over 3 tasks.
"$BIN" slurm tests/slurm/evolve-tiny.ron --kind evolve --tasks 3 --out "$W/tiny" \
    --cpus-per-task 1 --mem 200M --time 00:30:00 >/dev/null
sbatch --wait "$W/tiny/slurm/run.sbatch" >/dev/null || logs "the tiny evolution failed"
grep -h "step [0-9a-f]*: " "$W"/tiny/slurm/logs/driver-*.out
for field in step merge; do
    values=$(grep -h "step [0-9a-f]*: " "$W"/tiny/slurm/logs/driver-*.out | sed -n "s/.*, $field \([0-9.]*\) s.*/\1/p")
    echo "$field wall per step of the tiny evolution: median $(echo "$values" | median) s over $(echo "$values" | wc -l) steps"
done
rm -rf "$W"
