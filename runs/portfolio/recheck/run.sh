#!/usr/bin/env bash
# A stronger baseline for the portfolio's nominal wins (docs/portfolio.md, "Is the win the
# formula or the constant?"). For each (game, budget) below (the rows of portfolio.csv with a
# Wilcoxon p below 0.05, listed before this script ran anything), two runs:
#   1. a grid of UCT's C_E (GRID) on sweep sequences, against UCT at the constant the study
#      played (evomcts validate sweep; evolution's namespace, never validation's), whose best
#      win rate names C_best;
#   2. the study's champion against UCT at C_best on the study's own validation sequences,
#      fixed-N (300 sequences, both seatings): the same games as the study's validation but
#      for the baseline's constant.
# Needs the Python package with OpenSpiel (python -m evomcts); PY names the interpreter.
# Run from the repository root: bash runs/portfolio/recheck/run.sh
set -euo pipefail
PY=${PY:-python3}
P=runs/portfolio/portfolio12
OUT=runs/portfolio/recheck
GRID="[0.01, 0.03, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.5, 4.0]"
CASES="hex5:20 y7:20 tic-tac-toe:20 tic-tac-toe:100 pentago:100"
for case in $CASES; do
    label=${case%%:*}
    budget=${case##*:}
    study=$P/studies/$label/sims-$budget/validate/spec.ron
    name=$label-$budget
    # The study's played constant and its game, from its validation spec.
    "$PY" - "$study" "$OUT/$name" "$GRID" <<'PYEOF'
import re, sys
spec, out, grid = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(spec).read()
baseline = re.search(r"baseline: (Mcts\((?:[^()]|\([^()]*\))*\))", text).group(1)
sims = re.search(r"sims: (\d+)", baseline).group(1)
game = re.search(r"\n    game: (.*?),\n    rules:", text, re.S).group(1)
open(out + "-sweep.ron", "w").write(f"""(
    name: "recheck-sweep",
    description: "UCT's C_E on a grid against UCT at the study's played constant, on sweep sequences",
    seed: 4545,
    sequences: 100,
    settings: (sims: {sims}, reward: WinLoss, final_move: MostVisits),
    c_values: {grid},
    opponent: {baseline},
    game: {game},
)
""")
PYEOF
    "$PY" -m evomcts validate sweep "$OUT/$name-sweep.ron" --out "$OUT/$name-sweep" --resume --quiet
    best=$("$PY" - "$OUT/$name-sweep/sweep.csv" <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
best = max(rows, key=lambda r: (float(r["win_rate"]), -abs(float(r["c_e"]) - 0.5)))
print(best["c_e"])
PYEOF
)
    "$PY" - "$study" "$OUT/$name-validate.ron" "$best" <<'PYEOF'
import re, sys
spec, out, best = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(spec).read()
head, base = text.split("    baseline: Mcts(", 1)
base = re.sub(r"c_e: [^,]+,", f"c_e: {best},", base, count=1)
text = head + "    baseline: Mcts(" + base
text = re.sub(r'name: "[^"]*"', 'name: "recheck-validate"', text, count=1)
text = re.sub(r"\n    sequential: \((?:[^()]|\([^()]*\))*\),\n", "\n", text)
open(out, "w").write(text)
PYEOF
    echo "$name: C_best = $best"
    "$PY" -m evomcts validate game "$OUT/$name-validate.ron" --out "$OUT/$name-validate" --resume --quiet
done
