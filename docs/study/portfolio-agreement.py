# For each champion of the committed portfolio that is not UCT itself: how often it picks the
# same move as UCT at the played constant, at its budget, on the native game (`evomcts budgets
# --against`, 20 random games, seed 1), one JSON line each (docs/portfolio.md).
# Run from the repository's root: python3 docs/study/portfolio-agreement.py target/release/evomcts
import csv, json, subprocess, sys
native = {
    'carcassonne': 'Carcassonne', 'pig': 'Pig(target: 100)', 'connect-four': 'ConnectFour',
    'tic-tac-toe': 'TicTacToe', 'hex5': 'Hex(size: 5)', 'y7': 'Y(size: 7)', 'pentago': 'Pentago',
    'breakthrough6': 'Breakthrough(rows: 6, columns: 6)', 'clobber5': 'Clobber(rows: 5, columns: 5)',
    'mancala': 'Mancala', 'oware': 'Oware(houses_per_player: 6, seeds_per_house: 4)',
    'maedn': 'Maedn(two_players_opposite: true)', 'nim': 'Nim(piles: [1, 3, 5, 7], misere: true)',
    'dots-and-boxes': 'DotsAndBoxes(rows: 2, columns: 2)',
}
uct = 'Q + 2*C*sqrt(2*ln(N)/n)'
binary = sys.argv[1]
for r in csv.DictReader(open('runs/portfolio/portfolio12/portfolio.csv')):
    if r['champion_simplified'] == uct:
        continue
    c_e, b = r['c_e'], r['budget']
    champ = r['champion'].replace('"', '\\"')
    out = subprocess.run([binary, 'budgets', '--game', native[r['label']], '--budgets', b, '--games', '20', '--seed', '1',
                          '--controller', f'(c_e: {c_e}, selection: Formula("{champ}"))', '--against', f'(c_e: {c_e})', '--json'],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(r['label'], b, 'ERROR', out.stderr.strip()); continue
    p = json.loads(out.stdout); row = p['rows'][0]; a = row['agreement']
    print(json.dumps({'label': r['label'], 'budget': int(b), 'c_e': c_e, 'champion': r['champion_simplified'], 'win_rate': r['win_rate'], 'holm_p': r['holm_p'],
                      'decisions': p['decisions'], 'consulted': row['consulted_share'], 'spare': row['spare_sims'],
                      'same': a['same'], 'share': a['share'], 'low': a['low'], 'high': a['high']}), flush=True)
