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


def compare(here, populations, variants, column):
    """Evolves each of `variants` ({label: spec text of a master seed}, two of them) for every
    seed into `populations`/<label>-s<seed>/, measures each champion's regret, writes
    `here`/bandit.csv (the label in `column`) and prints the second minus the first."""
    rows = []
    for seed in SEEDS:
        for label, text in variants.items():
            name = f"{label}-s{seed}"
            spec = f"{here}/{name}.ron"
            with open(spec, "w") as f:
                f.write(text(seed))
            run = f"{populations}/{name}"
            if not os.path.exists(f"{run}/gen-015.ron"):
                resume = ["--resume"] if os.path.exists(run) else []
                subprocess.run([BIN, "evolve", spec, "--out", run, "--quiet"] + resume,
                               check=True, stdout=subprocess.DEVNULL)
            regret, formula = champion_regret(run)
            rows.append({"seed": seed, column: label, "regret": regret, "champion": formula})
            print(f"seed {seed} {label}: regret {regret} ({formula})", flush=True)

    with open(f"{here}/bandit.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["seed", column, "regret", "champion"])
        writer.writeheader()
        writer.writerows(rows)

    first, second = variants
    by = {(r["seed"], r[column]): r["regret"] for r in rows}
    diffs = [by[(s, second)] - by[(s, first)] for s in SEEDS]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    t975 = {9: 2.262}[n - 1]
    half = t975 * sd / math.sqrt(n)
    means = {v: sum(by[(s, v)] for s in SEEDS) / n for v in variants}
    print(f"mean champion regret over {n} seeds: {first} {means[first]:.2f}, "
          f"{second} {means[second]:.2f}")
    print(f"{second} - {first}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] "
          f"(t interval), exact Wilcoxon p = {wilcoxon_exact(diffs):.3f}")


if __name__ == "__main__":
    compare(HERE, "populations/perturbation",
            {label: (lambda seed, g=grammar: spec_text(g, seed))
             for label, grammar in GRAMMARS.items()},
            "grammar")
