// The game viewer of `evomcts report`: shows the board after turn T from the page's data
// (window.GAME) and the shared tile drawings (window.TILE_DRAWINGS, from tiles.js).
// Names and formulas are put into the page as text, never as markup.
(function () {
  "use strict";
  var game = window.GAME;
  var drawings = window.TILE_DRAWINGS || {};
  var last = game.turns.length - 1;
  var board = document.getElementById("board");
  var slider = document.getElementById("turn");
  var label = document.getElementById("turn-label");
  var current = 0;

  board.setAttribute("viewBox", "0 0 " + game.width + " " + game.height);

  function text(id, value) {
    document.getElementById(id).textContent = String(value);
  }

  // The meeple drawing standing on tile i after turn t, if any.
  function meepleDrawing(i, t) {
    for (var m = 0; m < game.meeples.length; m++) {
      var s = game.meeples[m];
      if (s.tile === i && s.from <= t && t < s.until) return s.drawing;
    }
    return null;
  }

  function placed(tile, key, kind) {
    return '<g class="' + kind + '" transform="translate(' + tile.left + "," + tile.top + ')">' +
      (drawings[key] || "") + "</g>";
  }

  // Meeples go over every tile, so no neighbour covers a meeple near an edge.
  function drawBoard(t) {
    var parts = [];
    var meeples = [];
    for (var i = 0; i <= t && i < game.tiles.length; i++) {
      parts.push(placed(game.tiles[i], game.tiles[i].drawing, "tile"));
      var meeple = meepleDrawing(i, t);
      if (meeple) meeples.push(placed(game.tiles[i], meeple, "meeple"));
    }
    parts = parts.concat(meeples);
    if (t > 0 && t < game.tiles.length) {
      var laid = game.tiles[t];
      parts.push('<rect class="last-tile" x="' + (laid.left - 1) + '" y="' + (laid.top - 1) +
        '" width="' + (game.tile_side + 2) + '" height="' + (game.tile_side + 2) + '"/>');
    }
    board.innerHTML = parts.join("");
  }

  function describeMove(turn) {
    var list = document.getElementById("move");
    list.textContent = "";
    function row(term, value) {
      var dt = document.createElement("dt");
      dt.textContent = term;
      var dd = document.createElement("dd");
      dd.textContent = value;
      list.appendChild(dt);
      list.appendChild(dd);
    }
    var mv = turn.move;
    if (!mv) {
      row("board", "the start tile alone");
      return;
    }
    row("player", "player " + (mv.player + 1) + ": " + game.names[mv.player]);
    row("tile", mv.tile);
    row("position", "(" + mv.x + ", " + mv.y + ")");
    row("rotation", mv.rotation + " quarter turn" + (mv.rotation === 1 ? "" : "s") + " clockwise");
    row("meeple", mv.meeple ? "on a " + mv.meeple.feature + " (segment " + mv.meeple.segment + ")" : "none");
    if (turn.finished) row("end", "final scores, end-of-game scoring done");
  }

  function describeFormula(turn) {
    var es = turn.es;
    var out;
    if (!turn.move) out = "no decision at the start";
    else if (!es) out = game.names[turn.move.player] + " is not an ES controller";
    else if (es.formula === null) out = "UCT (the ES did not run at this decision)";
    else {
      out = (es.typeset || es.formula) + "   [recorded: " + es.formula + "; canonical: " +
        (es.canonical || es.formula) + (es.fitness === null ? "" : "; fitness " + es.fitness) + "]";
    }
    text("formula", out);
  }

  function show(t) {
    current = Math.max(0, Math.min(last, t));
    var turn = game.turns[current];
    drawBoard(current);
    slider.value = String(current);
    label.textContent = current === last ? "turn " + current + " of " + last + " (final)" :
      "turn " + current + " of " + last;
    for (var p = 0; p < 2; p++) {
      text("score-" + p, turn.scores[p]);
      text("virtual-" + p, turn.virtual_scores[p]);
      text("supply-" + p, turn.supply[p]);
    }
    describeMove(turn);
    describeFormula(turn);
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("previous").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (e.key in moves) {
      e.preventDefault();
      show(moves[e.key]);
    }
  });
  show(0);
})();
