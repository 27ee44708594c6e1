#!/usr/bin/env bash
# The browser test of .ci/run: `evomcts report` pages and the page of `evomcts play --serve` opened in headless Chromium.
#
# Run it locally (as root, or with Chromium, chromium-driver and python3-selenium installed):
#
#     cargo build --release && bash tests/browser/run.sh target/release/evomcts
#
# Installs Debian's chromium, chromium-driver and python3-selenium when one is missing, builds
# a tiny league (one controller named with HTML markup) and a tiny evolution run with BIN,
# then the README's quick league and the committed populations/carcassonne-demo, writes their
# reports, and drives the pages as a user would (tests/browser/check.py): steps a
# game viewer to a turn with the arrow keys, the buttons and the slider and compares the
# scores shown with the game's record, compares the root statistics shown at a turn with
# games.jsonl, opens a turn from its address (#turn=T), checks that no page logged a JavaScript
# error, and that screenshots are not blank. Last, it plays a whole game of Connect Four
# against an evolved formula through the page of `evomcts play --serve` (tests/browser/play.py)
# and checks the recorded folder with `evomcts replay`. Screenshots stay in the printed work
# folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-target/release/evomcts}")
PY=/usr/bin/python3

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
"$PY" -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
if [ ${#missing[@]} -gt 0 ]; then
    echo "browser test: installing ${missing[*]} from Debian's packages"
    bash tests/apt-install.sh "${missing[@]}"
fi

W=$(mktemp -d /tmp/evomcts-browser-test.XXXXXX)
echo "browser test: work folder $W"

# Two seats, two games per match: four games, ES decisions recorded for the viewer's formula
# panel with every candidate (es_detail: Full), and the root statistics of every search
# (search_detail) for its search panel. The first name holds markup that must show as text.
cat > "$W/league.ron" <<'RON'
(
    name: "browser",
    description: "Tiny league of the browser test",
    games_per_match: 2,
    seed: 5,
    es_detail: Full,
    search_detail: RootChildren(6),
    controllers: [
        (name: "<b>&\"x", spec: Random),
        (name: "ES-MCTS", spec: Mcts(sims: 20, es: (generations: 2, lambda: 2))),
    ],
)
RON
cat > "$W/evolve.ron" <<'RON'
(
    name: "browser-evolution",
    seed: 3,
    strategy: (mu: 2, lambda: 4, generations: 3, plus: true),
    noise: (samples: 4, elites: 1, elite_samples: 4),
    fitness: Bandit(arms: 5, epsilon: 0.2, horizon: 100, c_e: 0.5),
)
RON

"$BIN" league "$W/league.ron" --out "$W/league" --quiet >/dev/null
"$BIN" report "$W/league" >/dev/null
"$BIN" evolve "$W/evolve.ron" --out "$W/evolution" --quiet >/dev/null
"$BIN" report "$W/evolution" >/dev/null

"$PY" tests/browser/check.py --league "$W/league" --evolution "$W/evolution" --shots "$W"

# The README's main league (runs/quick.ron, built in) and a committed evolution run, as a user
# would report them; copies keep the repository unchanged.
"$BIN" league --out "$W/quick" --quiet >/dev/null
"$BIN" report "$W/quick" >/dev/null
cp -r populations/carcassonne-demo "$W/carcassonne-demo"
rm -rf "$W/carcassonne-demo/report" "$W/carcassonne-demo/plots"
"$BIN" report "$W/carcassonne-demo" >/dev/null
mkdir -p "$W/quick-shots"
"$PY" tests/browser/check.py --league "$W/quick" --evolution "$W/carcassonne-demo" --shots "$W/quick-shots"

# `evomcts play --serve`: a person's game of Connect Four against an evolved formula (the
# committed Connect Four champion, named by its file as a league names it), played through the
# page by always clicking the leftmost open column (tests/browser/play.py), then the recorded
# folder read back with `evomcts replay`. The server stays until it is stopped here.
"$BIN" play --serve --seed 3 --out "$W/play" \
    --opponent 'Mcts(sims: 50, selection: FormulaFile("populations/connect-four/champion.txt"))' \
    >"$W/play.out" 2>"$W/play.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do
    grep -q '^open http' "$W/play.out" && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$W/play.err"; exit 1; }
    sleep 0.05
done
URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$W/play.out" | head -n 1)
"$PY" tests/browser/play.py --url "$URL" --run "$W/play" --bin "$BIN" --shots "$W"
kill "$SERVER"
