#!/usr/bin/env bash
# A stronger baseline for the portfolio's nominal wins (docs/portfolio.md, "Is the win the
# formula or the constant?"). For each (game, budget) below (the rows of portfolio.csv with a
# Wilcoxon p below 0.05, listed before this script ran anything), two runs:
#   1. a grid of UCT's C_E (GRID) on sweep sequences, against UCT at the constant the study
#      played (evomcts validate sweep; evolution's namespace, never validation's), whose best
#      win rate names C_best;
#   2. the study's champion against UCT at C_best on 300 fresh validation sequences (a seed of
#      their own in the validation namespace, so none of the games that made these cases
#      nominal wins is played again), both seatings, fixed-N.
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
text = re.sub(r"\n    seed: \d+,", "\n    seed: 4646,", text, count=1)
text = re.sub(r"\n    sequential: \((?:[^()]|\([^()]*\))*\),\n", "\n", text)
open(out, "w").write(text)
PYEOF
    echo "$name: C_best = $best"
    "$PY" -m evomcts validate game "$OUT/$name-validate.ron" --out "$OUT/$name-validate" --resume --quiet
done
# The table of docs/portfolio.md: each case's validation, its p Holm-adjusted over the cases.
"$PY" - $CASES <<'PYEOF'
import re, sys
rows = []
for case in sys.argv[1:]:
    label, budget = case.split(":")
    name = f"{label}-{budget}"
    summary = open(f"runs/portfolio/recheck/{name}-validate/summary.md").read()
    line = next(l for l in summary.splitlines() if l.startswith("| candidate vs baseline"))
    best = re.search(r"c_e: ([0-9.e-]+),", open(f"runs/portfolio/recheck/{name}-validate.ron").read().split("baseline:")[1]).group(1)
    cells = [c.strip() for c in line.strip("|").split("|")]
    p = cells[-1].split(" (")[0]
    rows.append((name, best, cells, 0.0 if p.startswith("<") else float(p)))
order = sorted(range(len(rows)), key=lambda i: rows[i][3])
holm, running = [0.0] * len(rows), 0.0
for rank, i in enumerate(order):
    running = max(running, min(1.0, (len(rows) - rank) * rows[i][3]))
    holm[i] = running
print("| game, simulations | C_best | W-D-L | win rate [95% CI] | score difference [95% CI] | Wilcoxon p | Holm p |")
print("|---|---|---|---|---|---|---|")
for (name, best, cells, p), h in zip(rows, holm):
    shown = "< 5e-6" if p == 0.0 else f"{h:.3g}"
    print(f"| {name} | {best} | {cells[3]} | {cells[4]} | {cells[5]} | {cells[6]} | {shown} |")
PYEOF
