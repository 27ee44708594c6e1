#!/usr/bin/env bash
# The committed evolved formulas validated in games of Pig to 100 against UCT tuned on Pig:
# the sweep that tunes UCT (sweep sequences), then every validation (validation sequences),
# each resumable (run again to continue), then one table of every validation's row in
# runs/validate/pig/summary.md. The baseline of the validation specs is the sweep's best point,
# written into them by hand after the sweep (their comments say which).
# Run from the repository's root: bash runs/validate/pig/run.sh [path to evomcts]
set -euo pipefail
evomcts=${1:-target/release/evomcts}
here=runs/validate/pig
resume() { if [ -e "$1/games.csv" ]; then echo --resume; fi; }
"$evomcts" validate sweep "$here/uct-sweep.ron" --out "$here/uct-sweep" $(resume "$here/uct-sweep") --quiet
entrants=(uct100-champion uct100-seed uct100-moregames-champion uct100-terminals-champion
    knowledge100-champion knowledge100-seed knowledge100-hashed-champion
    knowledge400-champion knowledge400-seed demo-champion demo-seed)
# The same formulas with Pig's constant (C_E = 1.4) instead of their run's.
retuned=(uct100-champion-c14 uct100-moregames-champion-c14 knowledge400-champion-c14
    knowledge-seed-c14)
# The champion evolved on Pig itself (runs/evolve/pig.ron), once that run has finished.
evolved=()
if [ -e populations/pig/champion.txt ]; then evolved=(evolved-champion); fi
for e in "${entrants[@]}" "${retuned[@]}" "${evolved[@]}"; do
    "$evomcts" validate game "$here/$e.ron" --out "$here/$e" $(resume "$here/$e") --quiet > /dev/null
done
{
    echo "# The evolved formulas in games of Pig to 100"
    echo
    echo "Each entrant (its run's candidate settings, 1,000 simulations, rewards +1/0/-1) against UCT tuned on Pig (the sweep's best point by mean score difference: $(sed -n 's/^Best point.*\*\*\(.*\)\*\*$/\1/p' "$here/uct-sweep/summary.md")), 1,000 sequences of die rolls of the validation namespace, both seatings. Made by \`bash runs/validate/pig/run.sh\`; each row is the table of \`runs/validate/pig/<entrant>/summary.md\`."
    echo
    echo "| entrant | sequences | games | W-D-L | win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p (n) |"
    echo "|---|---|---|---|---|---|---|"
    for e in "${entrants[@]}"; do
        grep '^| candidate vs baseline' "$here/$e/summary.md" | sed "s/^| candidate vs baseline/| $e/"
    done
    echo
    echo "The same formulas with Pig's constant, C_E = 1.4, instead of their run's (the other settings as above):"
    echo
    echo "| entrant | sequences | games | W-D-L | win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p (n) |"
    echo "|---|---|---|---|---|---|---|"
    for e in "${retuned[@]}"; do
        grep '^| candidate vs baseline' "$here/$e/summary.md" | sed "s/^| candidate vs baseline/| $e/"
    done
    if [ ${#evolved[@]} -gt 0 ]; then
        echo
        echo "The champion evolved on Pig (runs/evolve/pig.ron) against the same baseline:"
        echo
        echo "| entrant | sequences | games | W-D-L | win rate [95% CI] | mean score diff [95% CI] | Wilcoxon p (n) |"
        echo "|---|---|---|---|---|---|---|"
        grep '^| candidate vs baseline' "$here/evolved-champion/summary.md" | sed "s/^| candidate vs baseline/| evolved-champion/"
    fi
} > "$here/summary.md"
cat "$here/summary.md"
