#!/usr/bin/env python3
"""One markdown row per study run (docs/es-study.md).

Usage (from the repository root, after runs/study/run.sh):
    python3 runs/study/summarise.py runs/study/results/r1_default [...]

Win rate with its 95% Wilson interval and the Wilcoxon signed-rank p come from the tables
`evomcts league` wrote (win_rates.csv, statistics.csv). The only number computed here is
the 95% interval of the mean score difference (normal approximation, mean +- 1.96 s/sqrt(n))
from games.jsonl, and the drift share is read from `evomcts plot formulas`
(plots/formulas_drift.csv).
"""
import csv
import json
import math
import sys
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def summarise(run):
    run = Path(run)
    games = [json.loads(line) for line in open(run / "games.jsonl") if line.strip()]
    spec_names = None
    for line in open(run / "spec.ron"):
        pass
    # The first controller of a study spec is the variant, the second the reference.
    variant = games[0]["names"][0] if games[0]["job"]["id"]["first"] == 0 else games[0]["names"][1]
    diffs = []
    for g in games:
        scores = g["game"]["final_scores"]
        me = g["names"].index(variant)
        diffs.append(scores[me] - scores[1 - me])
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    wr = {r["Controller"]: r for r in rows(run / "win_rates.csv")}[variant]
    stats = rows(run / "statistics.csv")[0]
    p = stats["p"]
    leader = stats["Leader"]
    drift = "-"
    drift_csv = run / "plots" / "formulas_drift.csv"
    if drift_csv.exists():
        for r in rows(drift_csv):
            if r["controller"] == variant:
                pct = lambda k: 100 * float(r[k])
                uct = 100 * int(r["uct"]) / max(int(r["formulas"]), 1)
                drift = f'{pct("share"):.1f}% [{pct("share_low"):.1f}%, {pct("share_high"):.1f}%] (UCT {uct:.1f}%)'
    return (
        f'| {variant} | {run.name} | {n} | {wr["Win rate"]} {wr["95% interval"]} '
        f"| {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] | {p} ({leader} leads) | {drift} |"
    )


print("| Variant | Run | Games | Win rate [95%] | Mean score diff [95%] | Wilcoxon p | Drift share [95%] |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for run in sys.argv[1:]:
    print(summarise(run))
