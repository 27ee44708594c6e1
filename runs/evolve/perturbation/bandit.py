#!/usr/bin/env python3
"""Does constant perturbation help evolution on the bandit? (stdlib Python)

For master seeds 1..10, runs/evolve/bandit.ron is evolved twice: with the paper grammar and
with grammars/paper_perturbed.ron (the same plus constant perturbation), into
populations/perturbation/<grammar>-s<seed>/. Each champion's regret is then measured by
`evomcts validate bandit` on 4,000 fresh runs (the same runs for both grammars of a seed).
Writes runs/evolve/perturbation/bandit.csv and prints the paired comparison: the mean
difference (perturbed - plain) with a t interval, and the exact Wilcoxon signed-rank p over
the 10 seeds. A finished run folder is not evolved again, so the script resumes.

Run from the repository root: python3 runs/evolve/perturbation/bandit.py [path/to/evomcts]
"""
import csv
import itertools
import math
import os
import re
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/evomcts"
HERE = "runs/evolve/perturbation"
SEEDS = range(1, 11)
GRAMMARS = {"plain": "paper", "perturbed": "../../../grammars/paper_perturbed.ron"}


def spec_text(grammar, seed):
    base = open("runs/evolve/bandit.ron").read()
    base = base.replace('grammar: "paper"', f'grammar: "{grammar}"')
    base = base.replace("seed: 1,", f"seed: {seed},")
    return base


def champion_regret(run):
    out = subprocess.run(
        [BIN, "validate", "bandit", run, "--runs", "4000", "--threads", "2"],
        check=True, capture_output=True, text=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("| champion |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    return float(cells[3].split()[0]), cells[1].strip("`")


def wilcoxon_exact(diffs):
    nonzero = [d for d in diffs if d != 0]
    ranked = sorted(nonzero, key=abs)
    ranks = {}
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and abs(ranked[j]) == abs(ranked[i]):
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        i = j
    w_plus = sum(ranks[k] for k, d in enumerate(ranked) if d > 0)
    total = sum(ranks.values())
    observed = min(w_plus, total - w_plus)
    count = 0
    for signs in itertools.product([0, 1], repeat=len(ranked)):
        w = sum(ranks[k] for k, s in enumerate(signs) if s)
        if min(w, total - w) <= observed + 1e-9:
            count += 1
    return count / 2 ** len(ranked)


rows = []
for seed in SEEDS:
    for label, grammar in GRAMMARS.items():
        name = f"{label}-s{seed}"
        spec = f"{HERE}/{name}.ron"
        with open(spec, "w") as f:
            f.write(spec_text(grammar, seed))
        run = f"populations/perturbation/{name}"
        if not os.path.exists(f"{run}/gen-015.ron"):
            resume = ["--resume"] if os.path.exists(run) else []
            subprocess.run([BIN, "evolve", spec, "--out", run, "--quiet"] + resume,
                           check=True, stdout=subprocess.DEVNULL)
        regret, formula = champion_regret(run)
        rows.append({"seed": seed, "grammar": label, "regret": regret, "champion": formula})
        print(f"seed {seed} {label}: regret {regret} ({formula})", flush=True)

with open(f"{HERE}/bandit.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=["seed", "grammar", "regret", "champion"])
    writer.writeheader()
    writer.writerows(rows)

by = {(r["seed"], r["grammar"]): r["regret"] for r in rows}
diffs = [by[(s, "perturbed")] - by[(s, "plain")] for s in SEEDS]
n = len(diffs)
mean = sum(diffs) / n
sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
t975 = {9: 2.262}[n - 1]
half = t975 * sd / math.sqrt(n)
plain = sum(by[(s, "plain")] for s in SEEDS) / n
perturbed = sum(by[(s, "perturbed")] for s in SEEDS) / n
print(f"mean champion regret over {n} seeds: plain {plain:.2f}, perturbed {perturbed:.2f}")
print(f"perturbed - plain: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] (t interval), "
      f"exact Wilcoxon p = {wilcoxon_exact(diffs):.3f}")
