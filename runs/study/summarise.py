#!/usr/bin/env python3
"""One markdown row per study run (docs/es-study.md).

Usage (from the repository root, after runs/study/run.sh):
    python3 runs/study/summarise.py runs/study/results/r1_default [...]

Win rate with its 95% Wilson interval and the Wilcoxon signed-rank p come from the tables
`evomcts league` wrote (win_rates.csv, statistics.csv); the drift share and the share of
decisions that chose UCT from `evomcts plot formulas` (plots/formulas_drift.csv). Computed
here from games.jsonl: the 95% interval of the mean score difference (normal approximation,
mean +- 1.96 s/sqrt(n)) and the mean number of ES simulations per ES decision.
"""
import csv
import json
import math
import sys
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def p_text(p):
    p = float(p)
    return "< 0.0001" if p < 0.0001 else f"{p:.2g}"


def summarise(run):
    run = Path(run)
    games = [json.loads(line) for line in open(run / "games.jsonl") if line.strip()]
    # The first controller of a study spec is the variant, the second the reference.
    first = games[0]
    variant = first["names"][0] if first["job"]["id"]["first"] == 0 else first["names"][1]
    diffs, es_sims = [], []
    for g in games:
        scores = g["game"]["final_scores"]
        me = g["names"].index(variant)
        diffs.append(scores[me] - scores[1 - me])
        for decision in (g.get("es") or [[], []])[me]:
            if decision.get("es_simulations", 0) > 0:
                es_sims.append(decision["es_simulations"])
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    wr = {r["controller"]: r for r in rows(run / "win_rates.csv")}[variant]
    stats = rows(run / "statistics.csv")[0]
    drift = "-"
    drift_csv = run / "plots" / "formulas_drift.csv"
    if drift_csv.exists():
        for r in rows(drift_csv):
            if r["controller"] == variant:
                pct = lambda k: 100 * float(r[k])
                uct = 100 * int(r["uct"]) / max(int(r["formulas"]), 1)
                drift = (
                    f'{pct("share"):.1f}% [{pct("share_low"):.1f}%, {pct("share_high"):.1f}%] '
                    f"(UCT {uct:.1f}%)"
                )
    sims = f"{sum(es_sims) / len(es_sims):.0f}" if es_sims else "-"
    win = f'{float(wr["win_rate"]):.3f} [{float(wr["win_rate_low"]):.3f}, {float(wr["win_rate_high"]):.3f}]'
    return (
        f"| {variant} | {run.name} | {n} | {win} "
        f"| {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] "
        f'| {p_text(stats["p_value"])} ({stats["leader"]} leads) | {drift} | {sims} |'
    )


print(
    "| Variant | Run | Games | Win rate [95%] | Mean score diff [95%] | Wilcoxon p "
    "| Drift share [95%] | ES simulations per ES decision |"
)
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for run in sys.argv[1:]:
    print(summarise(run))
