"""Drives the pages of `evomcts report` in headless Chromium as a user would, checking what they
show against the run's records. Called by tests/browser/run.sh, which builds the runs.

Expected scores come from the league's games.jsonl, read here, never from the report's data.
"""

import argparse
import glob
import json
import os
import re
import struct
import sys
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# Collects uncaught errors, rejected promises and console.error calls from the first script
# of every page on.
ERROR_TRAP = """
window.__errors = [];
window.addEventListener('error', function (e) {
  window.__errors.push('error: ' + (e.message || e.type) + ' at ' + (e.filename || (e.target && (e.target.src || e.target.href)) || '?') + ':' + (e.lineno || 0));
}, true);
window.addEventListener('unhandledrejection', function (e) {
  window.__errors.push('unhandled rejection: ' + e.reason);
});
(function () {
  var original = console.error;
  console.error = function () {
    window.__errors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
"""

checks = 0


def ok(message):
    global checks
    checks += 1
    print("ok:", message)


def fail(message):
    print("FAILED:", message, file=sys.stderr)
    sys.exit(1)


def expect(condition, message, detail=""):
    if not condition:
        fail(message + (": " + detail if detail else ""))
    ok(message)


def png_pixels(data):
    """The pixels of an 8-bit RGB or RGBA non-interlaced PNG (what Chromium writes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    at, idat = 8, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        fail("unexpected PNG format (depth %d, colour type %d)" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    previous = bytearray(stride)
    pixels = []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        pixels.extend(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        previous = line
    return width, height, pixels


def check_screenshot(driver, path, what, min_colours):
    data = driver.get_screenshot_as_png()
    with open(path, "wb") as f:
        f.write(data)
    width, height, pixels = png_pixels(data)
    counts = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    commonest = max(counts.values()) / len(pixels)
    expect(
        len(counts) >= min_colours and commonest < 0.97,
        "%s: screenshot %dx%d is not blank (%d distinct colours, the commonest covers %.0f%%; %s)"
        % (what, width, height, len(counts), 100 * commonest, path),
        "too few colours",
    )


def check_no_errors(driver, what):
    errors = driver.execute_script("return window.__errors || ['the error trap did not run'];")
    severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    expect(not errors and not severe, what + ": no JavaScript error or failed load logged",
           "; ".join(errors + severe))


def open_page(driver, path):
    driver.get("file://" + os.path.abspath(path))


def league_games(run):
    """The league's records keyed by K, its number in schedule order, computed here from each
    game's identity: matches are the ordered pairs in row-major order without the diagonal."""
    with open(os.path.join(run, "games.jsonl")) as f:
        games = [json.loads(line) for line in f if line.strip()]
    entrants = 1 + max(max(g["job"]["id"]["first"], g["job"]["id"]["second"]) for g in games)
    per_match = 1 + max(g["job"]["id"]["index"] for g in games)
    by_number = {}
    for g in games:
        i = g["job"]["id"]
        pair = i["first"] * (entrants - 1) + i["second"] - (1 if i["second"] > i["first"] else 0)
        by_number[pair * per_match + i["index"]] = g
    return by_number


def shown_scores(driver):
    return [
        [int(driver.find_element(By.ID, "%s-%d" % (kind, p)).text) for p in range(2)]
        for kind in ("score", "virtual")
    ]


def shown_turn(driver):
    return int(driver.find_element(By.ID, "turn").get_attribute("value"))


def check_league(driver, run, shots):
    games = league_games(run)
    report = os.path.join(run, "report")
    open_page(driver, os.path.join(report, "index.html"))
    check_no_errors(driver, "league index")
    names = sorted({n for g in games.values() for n in g["names"]})
    standings = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    expect(len(standings) == len(names), "index: the standings list %d controllers" % len(names))
    cells = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#standings tbody td")]
    hostile = next((n for n in names if "<" in n), None)
    if hostile:
        expect(hostile in cells and not driver.find_elements(By.CSS_SELECTOR, "main b"),
               "index: the name %r shows as text, not markup" % hostile)
    expect(len(driver.find_elements(By.CSS_SELECTOR, "#figures svg")) >= 3,
           "index: the figures are inline SVG")
    rows = driver.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    expect(len(rows) == len(games), "index: the game table has a row per game (%d)" % len(games))
    check_screenshot(driver, os.path.join(shots, "league-index.png"), "league index", 20)

    # Game K: the game with the most ES decisions, so the formula panel has something to show.
    k = max(sorted(games), key=lambda n: sum(len(d) for d in games[n]["es"]))
    record = games[k]["game"]
    turns = len(record["moves"])
    driver.find_element(By.CSS_SELECTOR, '#games a[href="games/game-%d.html"]' % k).click()
    check_no_errors(driver, "game %d viewer" % k)
    title = driver.find_element(By.CSS_SELECTOR, "h1").text
    expect(all(n in title for n in games[k]["names"]),
           "game %d: the title names both players as text (%s)" % (k, title))

    # Step to turn T with the arrow key, as a user would.
    target = min(12, turns - 1)
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(target):
        ActionChains(driver).send_keys_to_element(body, Keys.ARROW_RIGHT).perform()
    expect(shown_turn(driver) == target, "game %d: %d presses of → reach turn %d" % (k, target, target))
    score, virtual = shown_scores(driver)
    expect(virtual == record["virtual_scores"][target - 1],
           "game %d turn %d: the virtual scores shown %s equal the record's %s"
           % (k, target, virtual, record["virtual_scores"][target - 1]))
    tiles = len(driver.find_elements(By.CSS_SELECTOR, "#board > g.tile"))
    expect(tiles == target + 1, "game %d turn %d: the board shows %d tiles (the start tile and one per turn)"
           % (k, target, tiles))
    # Every meeple that left a supply stands on the board, and each overlay draws something.
    meeples = driver.find_elements(By.CSS_SELECTOR, "#board > g.meeple")
    supply = [int(driver.find_element(By.ID, "supply-%d" % p).text) for p in (0, 1)]
    shape = re.compile(r"<(polygon|polyline|path|circle|ellipse|rect)\b")
    drawn = [m for m in meeples if shape.search(m.get_attribute("innerHTML") or "")]
    expect(len(meeples) == 2 * 7 - sum(supply) and len(drawn) == len(meeples),
           "game %d turn %d: the board shows %d meeples, each drawn, as many as left the supplies %s"
           % (k, target, len(meeples), supply))
    # Players alternate turn by turn (a discarded tile is drawn again by the same player).
    mv = record["moves"][target - 1]
    panel = driver.find_element(By.ID, "move").text.replace("\n", " ")
    wanted = ["player %d" % (1 + (target - 1) % 2), "(%d, %d)" % (mv["x"], mv["y"]),
              "%d quarter turn" % mv["rotation"], "none" if mv["meeple"] is None else "segment %d" % mv["meeple"]]
    expect(all(w in panel for w in wanted),
           "game %d turn %d: the move panel shows the record's move %s" % (k, target, wanted), panel)
    check_screenshot(driver, os.path.join(shots, "game-%d-turn-%d.png" % (k, target)),
                     "game %d at turn %d" % (k, target), 40)

    # The last-turn button: the final scores.
    driver.find_element(By.ID, "last").click()
    score, virtual = shown_scores(driver)
    expect(shown_turn(driver) == turns and score == record["final_scores"],
           "game %d: ⏭ shows turn %d with the record's final scores %s" % (k, turns, record["final_scores"]))

    # The slider: a click moves it to some turn, then ← steps back one.
    slider = driver.find_element(By.ID, "turn")
    ActionChains(driver).move_to_element(slider).click().perform()
    at = shown_turn(driver)
    expect(0 < at < turns, "game %d: a click on the slider moves to turn %d" % (k, at))
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    expect(shown_turn(driver) == at - 1, "game %d: ← on the slider steps to turn %d" % (k, at - 1))
    score, virtual = shown_scores(driver)
    expected = record["virtual_scores"][at - 2] if at >= 2 else [0, 0]
    expect(virtual == expected, "game %d turn %d: the virtual scores shown %s equal the record's %s"
           % (k, at - 1, virtual, expected))

    # The formula panel names the ES formula of each ES decision.
    es_seat = next((s for s in range(2) if games[k]["es"][s]), None)
    if es_seat is not None:
        decision = next(d for d in games[k]["es"][es_seat] if d["formula"])
        driver.find_element(By.ID, "first").click()
        for _ in range(decision["turn"] + 1):
            driver.find_element(By.ID, "next").click()
        formula = driver.find_element(By.ID, "formula").text
        expect(decision["formula"] in formula,
               "game %d turn %d: the formula panel shows the recorded ES formula %s"
               % (k, decision["turn"] + 1, decision["formula"]))
    check_no_errors(driver, "game %d viewer after stepping" % k)
    if records_search(run):
        check_search(driver, games[k], k, report, shots)
    else:
        check_no_search(driver, games, k)


def move_label(mv):
    """A move as the viewer and `evomcts analyse` write it (Rust's `Move` display)."""
    meeple = "no meeple" if mv["meeple"] is None else "meeple@%d" % mv["meeple"]
    return "(%d,%d) r%d %s" % (mv["x"], mv["y"], mv["rotation"], meeple)


def records_search(run):
    """Whether the league's spec asks for the root statistics of every search (`search_detail`
    other than its default, `None`): the run folder's own spec.ron says."""
    with open(os.path.join(run, "spec.ron")) as f:
        spec = f.read()
    m = re.search(r"\bsearch_detail\s*:\s*(\w+)", spec)
    return m is not None and m.group(1) != "None"


def check_no_search(driver, games, k):
    """Without search_detail in the spec (the README's quick league): no game holds search
    records, and the viewer's search panel lists no rows."""
    recorded = sum(len(d) for g in games.values() for d in g.get("search", [[], []]))
    expect(recorded == 0, "league without search_detail: games.jsonl holds no search records (%d)" % recorded)
    rows = driver.find_elements(By.CSS_SELECTOR, "#search tbody tr")
    expect(not rows, "game %d: the search panel lists no rows when nothing was recorded" % k)


def check_search(driver, game, k, report, shots):
    """With search_detail recorded: the search panel at a turn opened from its address shows
    the root children games.jsonl holds, the board shades their squares, and the address
    follows the turn on display."""
    decisions = [(seat, d) for seat in range(2) for d in game.get("search", [[], []])[seat]
                 if "Mcts" in d["search"] and d["search"]["Mcts"]["simulations"] > 0]
    # run.sh's league records search_detail for its MCTS player, which plays every game: a game
    # without a searched decision means the records lost them, not a check to skip.
    expect(bool(decisions), "game %d: games.jsonl holds the searched decisions search_detail records" % k)
    seat, decision = max(decisions, key=lambda sd: len(sd[1]["search"]["Mcts"]["children"]))
    root = decision["search"]["Mcts"]
    turn = decision["turn"] + 1
    page = os.path.join(report, "games", "game-%d.html" % k)
    driver.get("file://" + os.path.abspath(page) + "#turn=%d" % turn)
    check_no_errors(driver, "game %d opened at #turn=%d" % (k, turn))
    expect(shown_turn(driver) == turn, "game %d: #turn=%d opens the viewer at turn %d" % (k, turn, turn))
    rows = driver.find_elements(By.CSS_SELECTOR, "#search tbody tr")
    shown = [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows]
    wanted = [[move_label(c["mv"]), str(c["visits"]), "%.3f" % c["q"]] for c in root["children"]]
    got = [[r[0].replace(" (played)", ""), r[1], r[3]] for r in shown]
    expect(got == wanted, "game %d turn %d: the search panel lists the %d recorded root children (move, visits, Q)"
           % (k, turn, len(wanted)), "shown %s, recorded %s" % (got, wanted))
    note = driver.find_element(By.CSS_SELECTOR, "#search p.note").text
    expect("%d simulations" % root["simulations"] in note and "%d legal moves" % root["legal_moves"] in note,
           "game %d turn %d: the panel names the simulations and legal moves (%s)" % (k, turn, note))
    played = move_label(game["game"]["moves"][turn - 1])
    marked = [r[0] for r in shown if r[0].endswith("(played)")]
    expect(marked == ([played + " (played)"] if played in [w[0] for w in wanted] else []),
           "game %d turn %d: the played move is marked where it is listed" % (k, turn))
    squares = {(c["mv"]["x"], c["mv"]["y"]) for c in root["children"]}
    shaded = driver.find_elements(By.CSS_SELECTOR, "#board > rect.candidate")
    expect(len(shaded) == len(squares), "game %d turn %d: the board shades the %d squares of the recorded moves"
           % (k, turn, len(squares)))
    command = driver.find_element(By.ID, "analyse").text
    expect("analyse" in command and command.endswith("--turn %d" % turn) and game["names"][seat] in command,
           "game %d turn %d: the viewer shows the command that analyses the turn (%s)" % (k, turn, command))
    drawn = driver.find_element(By.ID, "drawn").text
    expect(drawn.startswith("drawn: ") and drawn.endswith(" (placed)"),
           "game %d turn %d: the tiles drawn at the turn are shown (%s)" % (k, turn, drawn))
    check_screenshot(driver, os.path.join(shots, "game-%d-search-turn-%d.png" % (k, turn)),
                     "game %d search at turn %d" % (k, turn), 40)
    ActionChains(driver).send_keys_to_element(driver.find_element(By.TAG_NAME, "body"), Keys.ARROW_RIGHT).perform()
    address = driver.execute_script("return window.location.hash;")
    expect(address == "#turn=%d" % (turn + 1), "game %d: → makes the address #turn=%d (%s)" % (k, turn + 1, address))
    # An ES decision with every candidate recorded lists its last generation.
    es = [d for s in range(2) for d in game["es"][s] if d.get("full") and d["full"]["generations"]]
    if es:
        d = es[0]
        driver.get("file://" + os.path.abspath(page) + "#turn=%d" % (d["turn"] + 1))
        rows = driver.find_elements(By.CSS_SELECTOR, "#es-candidates tbody tr")
        last = d["full"]["generations"][-1]["candidates"]
        cells = [row.find_elements(By.TAG_NAME, "td")[2].text for row in rows]
        expect(cells == ["%.3f" % c["fitness"] for c in last],
               "game %d turn %d: the ES panel lists the last generation's %d candidates with their fitness"
               % (k, d["turn"] + 1, len(last)), "%s" % cells)
    check_no_errors(driver, "game %d viewer after the search checks" % k)


def check_evolution(driver, run, shots):
    generations = len(glob.glob(os.path.join(run, "gen-*.ron")))
    open_page(driver, os.path.join(run, "report", "index.html"))
    check_no_errors(driver, "evolution report")
    rows = driver.find_elements(By.CSS_SELECTOR, "#logbook tbody tr")
    expect(len(rows) == generations, "evolution: the logbook has a row per generation (%d)" % generations)
    rows = driver.find_elements(By.CSS_SELECTOR, "#fitness tbody tr")
    expect(len(rows) == generations, "evolution: fitness per generation, %d rows" % generations)
    expect(len(driver.find_elements(By.CSS_SELECTOR, "#hall-of-fame tbody tr")) >= 1,
           "evolution: the hall of fame lists formulas")
    boxes = driver.find_elements(By.CSS_SELECTOR, "#lineage svg rect")
    expect(len(boxes) >= 2, "evolution: the lineage is inline SVG (%d boxes)" % (len(boxes) - 1))
    cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#logbook tbody td, #hall-of-fame tbody td")]
    long = [c for c in cells if re.fullmatch(r"-?\d+\.\d{4,}", c)]
    expect(not long, "evolution: the tables show numbers rounded (none with more than 3 decimals)", "%s" % long[:5])
    check_screenshot(driver, os.path.join(shots, "evolution.png"), "evolution report", 10)


def start_driver():
    """Headless Chromium with the error trap in every page it opens."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_TRAP})
    print("browser:", driver.capabilities.get("browserVersion"))
    return driver


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--league", required=True)
    parser.add_argument("--evolution", required=True)
    parser.add_argument("--shots", required=True)
    args = parser.parse_args()
    driver = start_driver()
    try:
        check_league(driver, args.league, args.shots)
        check_evolution(driver, args.evolution, args.shots)
    finally:
        driver.quit()
    print("browser test: %d checks passed" % checks)


if __name__ == "__main__":
    main()
