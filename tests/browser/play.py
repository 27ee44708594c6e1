"""Plays a whole game of Connect Four on the page of `evomcts play --serve` in headless
Chromium, as a person would: always the leftmost open column, by clicking its button, until the
page shows the result. Then checks that no JavaScript error was logged, that the page's moves
and result are the recorded game's (games.jsonl, read here), that every move of the person was
the leftmost open column, that the server refuses a bad move and a move after the end with a
4xx status and a message, and that `evomcts replay` shows and reproduces the recorded game.
Called by tests/browser/run.sh, which starts the server.
"""

import argparse
import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from check import check_no_errors, check_screenshot, expect, fail, start_driver

# Posts a move from the page and hands back its status and message.
POST_MOVE = """
var done = arguments[arguments.length - 1];
fetch('move', {method: 'POST', body: arguments[0]})
  .then(function (r) { return r.text().then(function (t) { done([r.status, t]); }); })
  .catch(function (e) { done([0, String(e)]); });
"""

COLUMNS = 7
ROWS = 6


def page_state(driver):
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-state")


def wait_for_turn_or_end(driver):
    """Waits until the page asks for a move or shows the result (the controller's answer can
    take a moment); an error state fails the test."""
    WebDriverWait(driver, 120).until(lambda d: page_state(d) in ("your-move", "over", "error"))
    state = page_state(driver)
    if state == "error":
        fail("the page shows an error: " + driver.find_element(By.ID, "error").text)
    return state


def play_leftmost(driver):
    """Clicks the leftmost open column until the game is over; returns the columns clicked."""
    clicked = []
    while wait_for_turn_or_end(driver) == "your-move":
        buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        columns = [int(b.text) for b in buttons]
        if not columns or columns != sorted(columns):
            fail("the page lists the open columns left to right, found %s" % columns)
        clicked.append(columns[0])
        buttons[0].click()
    return clicked


def recorded_game(run):
    with open(os.path.join(run, "games.jsonl")) as f:
        games = [json.loads(line) for line in f if line.strip()]
    if len(games) != 1:
        fail("%s holds %d games, not the one played" % (run, len(games)))
    return games[0]


def open_columns(moves):
    """The open columns, left to right, before each move of a Connect Four game."""
    heights = [0] * COLUMNS
    before = []
    for mv in moves:
        before.append([c for c in range(COLUMNS) if heights[c] < ROWS])
        heights[mv] += 1
    return before


def expected_result(game):
    names, scores = game["names"], game["game"]["final_scores"]
    if scores[0] == scores[1]:
        words = "a draw"
    elif scores[0] > scores[1]:
        words = "you win" if names[0] == "you" else names[0] + " wins"
    else:
        words = "you win" if names[1] == "you" else names[1] + " wins"
    return "%s: %s %d – %d %s" % (words, names[0], scores[0], scores[1], names[1])


def check_play(driver, url, run, binary, shots):
    driver.get(url)
    wait_for_turn_or_end(driver)
    check_no_errors(driver, "play page")
    expect("Connect Four" in driver.find_element(By.ID, "title").text, "the page names the game")
    status, message = driver.execute_async_script(POST_MOVE, "zz")
    expect(status == 400 and "no legal move" in message,
           "a bad move is refused with 400 and a message (%d: %s)" % (status, message))
    # The browser logs the refused request: that entry, and no other, is taken from the log.
    logged = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    expect(all("400" in m for m in logged), "the only error logged is the refused move's 400",
           "; ".join(logged))
    check_screenshot(driver, os.path.join(shots, "play-start.png"), "play page at the start", 10)

    clicked = play_leftmost(driver)
    check_no_errors(driver, "play page after the game")
    game = recorded_game(run)
    moves = game["game"]["moves"]
    seat = game["names"].index("you")
    mine = moves[seat::2]
    expect(clicked == mine, "the %d columns clicked are the person's recorded moves" % len(clicked),
           "clicked %s, recorded %s" % (clicked, mine))
    before = open_columns(moves)
    expect(all(moves[i] == before[i][0] for i in range(seat, len(moves), 2)),
           "every move of the person was the leftmost open column")
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    logged = [int(line.rsplit(" plays ", 1)[1]) for line in log]
    expect(logged == moves, "the page's list of moves is the recorded game (%d moves)" % len(moves),
           "page %s, record %s" % (logged, moves))
    result = driver.find_element(By.ID, "result").text
    expect(result == expected_result(game), "the result shown is the record's (%s)" % result,
           "expected %s" % expected_result(game))
    recorded = driver.find_element(By.ID, "recorded").text
    expect("as game 0" in recorded and "evomcts replay" in recorded,
           "the page says where the game is recorded (%s)" % recorded)
    rows = driver.find_elements(By.CSS_SELECTOR, "#search tbody tr")
    expect(len(rows) >= 1, "the controller's root statistics are shown as a table (%d rows)" % len(rows))
    status, message = driver.execute_async_script(POST_MOVE, "a")
    expect(status == 409 and "over" in message,
           "a move after the end is refused with 409 (%d: %s)" % (status, message))
    check_screenshot(driver, os.path.join(shots, "play-end.png"), "play page at the end", 10)

    shown = subprocess.run([binary, "replay", run, "--game", "0"], check=True,
                           capture_output=True, text=True).stdout
    replayed = [int(line.rsplit("): ", 1)[1]) for line in shown.splitlines() if line.startswith("step ")]
    expect(replayed == moves, "`evomcts replay --game 0` shows the recorded moves")
    verified = subprocess.run([binary, "replay", run, "--quiet"], check=True,
                              capture_output=True, text=True).stdout
    expect("1 games replayed, 1 reproduced, 0 diverged" in verified,
           "`evomcts replay` reproduces the game (the formula's moves searched again)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--shots", required=True)
    args = parser.parse_args()
    driver = start_driver()
    try:
        check_play(driver, args.url, args.run, args.bin, args.shots)
    finally:
        driver.quit()
    import check
    print("play test: %d checks passed" % check.checks)


if __name__ == "__main__":
    main()
