#!/usr/bin/env bash
# Coordinate descent over the three weights of the hand-made rule with move features,
#   Q + 2*C*sqrt(2*ln(N)/n) + 30*(H + A*R - B*M*(1 - L) - D*F)/(n + 1)
# (A: a bonus per meeple the move returns; B: a cost for placing a meeple that grows as the
# supply runs out; D: a cost for placing a farmer), first-play urgency, most visits, against
# the rule without features (the same with A = B = D = 0) at its tuned C_E: at 100
# simulations C_E = 0.003 (runs/validate/baseline-sweep-100-pb-fpu), at 400 C_E = 0.01
# (runs/validate/baseline-sweep-400-pb-fpu); both players use that C_E.
# Each step is a `validate sweep` over one weight, the others fixed at their best so far,
# on 100 sweep sequences (evolution's namespace, never validation's) x 2 seatings; the best
# value is the one with the highest mean score difference. ROUNDS rounds of A, B, D (default
# 2 at 100 simulations, 1 at 400).
# Every step's folder is kept (spec, games, sweep.csv, summary.md); a step whose folder
# holds a summary is not played again, so the script resumes where it stopped.
# Run from the repository root:
#   bash runs/validate/features/tune.sh [path/to/evomcts] [SIMS (100 or 400)] [ROUNDS]
set -euo pipefail
bin="${1:-target/release/evomcts}"
sims="${2:-100}"
case "$sims" in
  100) c_e=0.003; rounds="${3:-2}";;
  400) c_e=0.01; rounds="${3:-1}";;
  *) echo "SIMS must be 100 or 400, got $sims" >&2; exit 2;;
esac
here="runs/validate/features"
grid="[0.0, 0.025, 0.05, 0.1, 0.2]"
declare -A best=([A]=0 [B]=0 [D]=0)
rule() { # the formula with the weights of $1 (a name) left as {W}
  local a="${best[A]}" b="${best[B]}" d="${best[D]}"
  case "$1" in A) a="{W}";; B) b="{W}";; D) d="{W}";; esac
  echo "Q + 2*C*sqrt(2*ln(N)/n) + 30*(H + ${a}*R - ${b}*M*(1 - L) - ${d}*F)/(n + 1)"
}
step=0
for round in $(seq 1 "$rounds"); do
  for weight in A B D; do
    step=$((step + 1))
    name="tune-${sims}-step${step}-${weight}"
    spec="$here/$name.ron"
    cat > "$spec" <<RON
// Step $step of runs/validate/features/tune.sh (round $round): weight $weight swept, the others
// at their best so far. Run: bash runs/validate/features/tune.sh
(
    name: "$name",
    description: "Feature rule, weight $weight swept (round $round), $sims simulations, against the rule without features",
    seed: 44,
    sequences: 100,
    settings: (sims: $sims, reward: ScaledScoreDiff(50.0), selection: Formula("$(rule $weight)"), unvisited: Ranked(q: ParentQ, n: 1.0)),
    c_values: [$c_e],
    w_values: $grid,
    final_moves: [MostVisits],
    opponent: Mcts(sims: $sims, c_e: $c_e, reward: ScaledScoreDiff(50.0), final_move: MostVisits, unvisited: Ranked(q: ParentQ, n: 1.0), selection: Formula("Q + 2*C*sqrt(2*ln(N)/n) + 30*H/(n + 1)")),
)
RON
    out="$here/$name"
    if [ ! -f "$out/summary.md" ]; then
      if [ -d "$out" ]; then resume=--resume; else resume=; fi
      "$bin" validate sweep "$spec" --out "$out" --quiet $resume > /dev/null
    fi
    best[$weight]=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(max(rows, key=lambda r: float(r["diff_mean"]))["w"])' "$out/sweep.csv")
    echo "step $step: $weight = ${best[$weight]} ($(rule none))"
  done
done
echo "tuned rule: $(rule none)" | tee "$here/tuned-$sims.txt"
