#!/usr/bin/env bash
# Native games against the OpenSpiel adapter on their OpenSpiel equivalents (docs/games.md,
# "Speed"): for each game, `bench search --only mcts` at 400 simulations on positions from
# the middle third of random games, natively and through the Python package on OpenSpiel's game,
# one after the other in one sitting. Prints one line a game: MCTS-400 CPU ms per decision and
# random playouts per second of wall time, each way, and the ratios. Needs the Python package with
# OpenSpiel installed (docs/python.md); PY names its interpreter.
#   bash bench/native-games/speed.sh [POSITIONS]
set -euo pipefail
PY=${PY:-python}
POSITIONS=${1:-10}
games=(
  'TicTacToe|OpenSpiel(name: "tic_tac_toe")'
  'Hex(size: 11)|OpenSpiel(name: "hex")'
  'Hex(size: 5)|OpenSpiel(name: "hex", params: {"board_size": 5})'
  'Y(size: 19)|OpenSpiel(name: "y")'
  'Gomoku(size: 15, connect: 5)|OpenSpiel(name: "gomoku")'
  'Pentago|OpenSpiel(name: "pentago")'
  'Othello|OpenSpiel(name: "othello")'
  'Breakthrough(rows: 8, columns: 8)|OpenSpiel(name: "breakthrough")'
  'Clobber(rows: 5, columns: 6)|OpenSpiel(name: "clobber")'
  'Checkers(rows: 8, columns: 8)|OpenSpiel(name: "checkers")'
  'Mancala|OpenSpiel(name: "mancala")'
  'Oware(houses_per_player: 6, seeds_per_house: 4)|OpenSpiel(name: "oware")'
  'Nim(piles: [1, 3, 5, 7], misere: true)|OpenSpiel(name: "nim")'
  'DotsAndBoxes(rows: 2, columns: 2)|OpenSpiel(name: "dots_and_boxes")'
  'Maedn(two_players_opposite: true)|OpenSpiel(name: "maedn", params: {"players": 2})'
  'Backgammon(max_player_turns: 500)|OpenSpiel(name: "backgammon")'
)
field() { "$PY" -c "import json,sys; d=json.load(sys.stdin); print(d['$1'])"; }
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' game native_ms adapter_ms decision_ratio native_playouts adapter_playouts playout_ratio
for pair in "${games[@]}"; do
  native=${pair%%|*}; os=${pair#*|}
  a=$("$PY" -m evomcts bench search --only mcts --positions "$POSITIONS" --json --game "$native")
  b=$("$PY" -m evomcts bench search --only mcts --positions "$POSITIONS" --json --game "$os")
  nm=$(field mcts_decision_cpu_ms <<<"$a"); om=$(field mcts_decision_cpu_ms <<<"$b")
  np=$(field playouts_per_sec <<<"$a"); op=$(field playouts_per_sec <<<"$b")
  printf '%s\t%.3f\t%.3f\t%.1f\t%.0f\t%.0f\t%.1f\n' "$native" "$nm" "$om" "$(echo "$om/$nm" | bc -l)" "$np" "$op" "$(echo "$np/$op" | bc -l)"
done
