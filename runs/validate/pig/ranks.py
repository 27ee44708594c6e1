#!/usr/bin/env python3
"""Whether the ranking of the committed formulas carries over from Carcassonne to Pig.

Reads the validations' summary.md files and docs/pig/compare.csv and prints two rank
correlations (Spearman, average ranks for ties):
- win rate against tuned UCT on Carcassonne against win rate against tuned UCT on Pig, over the
  formulas validated on both games, with the exact two-sided permutation p-value;
- mean regret on Pig's exact positions against win rate in games of Pig, over every entrant.
Standard library only. Run from the repository's root: python3 runs/validate/pig/ranks.py
"""
import csv
import itertools
import re

# Pig validation folder -> (Carcassonne validation folder or None, entrant of compare.csv).
ENTRANTS = {
    "uct100-seed": (None, "carcassonne-uct100 seed formula"),
    "uct100-champion": ("carcassonne-uct100", "carcassonne-uct100 champion"),
    "uct100-moregames-champion": ("carcassonne-uct100-moregames", "carcassonne-uct100-moregames champion"),
    "uct100-terminals-champion": ("carcassonne-uct100-terminals", "carcassonne-uct100-terminals champion"),
    "knowledge100-seed": ("knowledge100-pb-fpu-vs-uct", "carcassonne-knowledge100 seed formula"),
    "knowledge100-champion": ("knowledge100-champion-vs-uct", "carcassonne-knowledge100 champion"),
    "knowledge100-hashed-champion": (None, "carcassonne-knowledge100-hashed champion"),
    "knowledge400-seed": ("knowledge400-pb-fpu-vs-uct400", "carcassonne-knowledge400 seed formula"),
    "knowledge400-champion": ("knowledge400-champion-vs-uct400", "carcassonne-knowledge400 champion"),
    "demo-seed": (None, "carcassonne seed formula"),
    "demo-champion": (None, "carcassonne champion"),
}
# The UCT runs' seed formula is the Carcassonne baseline itself: even by construction.
CARCASSONNE_BASELINE = {"uct100-seed": 0.5}


def win_rate(folder):
    with open(f"{folder}/summary.md") as f:
        for line in f:
            if line.startswith("| candidate vs baseline"):
                return float(line.split("|")[5].split()[0])
    raise ValueError(f"{folder}/summary.md holds no result row")


def regrets():
    with open("docs/pig/compare.csv") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for name, (_, entrant) in ENTRANTS.items():
        match = [r for r in rows if re.sub(r" #\d+$", "", r["entrant"]) == entrant]
        out[name] = float(match[0]["mean regret"])
    return out


def ranks(values):
    order = sorted(values, key=values.get)
    out, i = {}, 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a, b):
    names = list(a)
    ra, rb = ranks(a), ranks(b)
    ma = sum(ra.values()) / len(names)
    mb = sum(rb.values()) / len(names)
    cov = sum((ra[n] - ma) * (rb[n] - mb) for n in names)
    va = sum((ra[n] - ma) ** 2 for n in names)
    vb = sum((rb[n] - mb) ** 2 for n in names)
    return cov / (va * vb) ** 0.5


def permutation_p(a, b):
    names = list(a)
    observed = abs(spearman(a, b))
    values = [b[n] for n in names]
    hits = total = 0
    for perm in itertools.permutations(values):
        total += 1
        hits += abs(spearman(a, dict(zip(names, perm)))) >= observed - 1e-12
    return hits / total


pig = {e: win_rate(f"runs/validate/pig/{e}") for e in ENTRANTS}
carcassonne = {
    e: CARCASSONNE_BASELINE.get(e) or win_rate(f"runs/validate/{c}")
    for e, (c, _) in ENTRANTS.items()
    if c is not None or e in CARCASSONNE_BASELINE
}
both = {e: pig[e] for e in carcassonne}
rho = spearman(carcassonne, both)
print(f"Carcassonne vs Pig win rates, {len(both)} formulas: Spearman {rho:+.2f}, "
      f"exact permutation p = {permutation_p(carcassonne, both):.3f} (two-sided)")
regret = regrets()
rho = spearman({e: -r for e, r in regret.items()}, pig)
print(f"Pig regret vs Pig win rate, {len(pig)} entrants: Spearman {rho:+.2f} "
      f"(lower regret ranked as higher win rate)")
