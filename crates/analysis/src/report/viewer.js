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
    var search = game.turns[t].search;
    if (search && search.children.length) {
      // One shade per square: the share of the simulations its recorded moves took.
      var squares = {};
      search.children.forEach(function (c) {
        var key = c.left + "," + c.top;
        squares[key] = squares[key] || { left: c.left, top: c.top, share: 0 };
        squares[key].share += c.share || 0;
      });
      Object.keys(squares).forEach(function (key) {
        var sq = squares[key];
        parts.push('<rect class="candidate" x="' + sq.left + '" y="' + sq.top + '" width="' +
          game.tile_side + '" height="' + game.tile_side + '" fill-opacity="' +
          (0.12 + 0.5 * Math.min(1, sq.share)).toFixed(3) + '"><title>' +
          (100 * sq.share).toFixed(1) + '% of the simulations</title></rect>');
      });
    }
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

  // A number for people: three decimals ("-" when absent).
  function rounded(value) {
    return value === null || value === undefined ? "-" : Number(value).toFixed(3);
  }

  // A table of plain-text cells; a row may carry a class.
  function tableOf(headers, rows, caption) {
    var table = document.createElement("table");
    if (caption) {
      var cap = document.createElement("caption");
      cap.textContent = caption;
      table.appendChild(cap);
    }
    var head = document.createElement("tr");
    headers.forEach(function (h) {
      var th = document.createElement("th");
      th.textContent = h;
      head.appendChild(th);
    });
    var thead = document.createElement("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement("tbody");
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      if (row.className) tr.className = row.className;
      row.cells.forEach(function (cell, i) {
        var td = document.createElement("td");
        td.textContent = cell;
        if (i > 0 && /^[-+0-9.%]+$/.test(String(cell))) td.className = "num";
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  function describeFormula(turn) {
    var es = turn.es;
    var out;
    if (!turn.move) out = "no decision at the start";
    else if (!es) out = game.names[turn.move.player] + " is not an ES controller";
    else if (es.formula === null) out = "UCT (the ES did not run at this decision)";
    else {
      out = (es.typeset || es.formula) + "   [recorded: " + es.formula + "; canonical: " +
        (es.canonical || es.formula) + (es.fitness === null ? "" : "; fitness " + rounded(es.fitness)) + "]";
    }
    text("formula", out);
    var panel = document.getElementById("es-candidates");
    panel.textContent = "";
    var generation = es && es.last_generation;
    if (generation) {
      panel.appendChild(tableOf(["#", "candidate", "fitness"], generation.candidates.map(function (c, i) {
        return { cells: [i + 1, c.typeset || c.formula, rounded(c.fitness)] };
      }), "Candidates of the last generation (" + generation.generation + "), in birth order"));
    }
  }

  function describeSearch(turn) {
    var panel = document.getElementById("search");
    panel.textContent = "";
    var search = turn.search;
    var note = document.createElement("p");
    note.className = "note";
    if (!turn.move) note.textContent = "no decision at the start";
    else if (!search) note.textContent = "no search statistics recorded for this decision (the league spec's search_detail)";
    else if (search.kind === "star") {
      panel.appendChild(tableOf(["searched value", "nodes"], [{ cells: [rounded(search.value), search.nodes] }],
        "*-minimax: the chosen move's value"));
      return;
    } else {
      note.textContent = search.simulations + " simulations" +
        (search.es_simulations ? " (+" + search.es_simulations + " scoring ES candidates)" : "") +
        ", " + search.legal_moves + " legal moves; the " + search.children.length + " most visited:";
      panel.appendChild(note);
      // The move features' columns only when the search computed them.
      var featureNames = ["G", "O", "M", "F", "R", "L", "T"];
      var withFeatures = search.children.some(function (c) { return c.features; });
      var headers = ["move", "visits", "share", "Q", "H", "p"].concat(withFeatures ? featureNames : []);
      panel.appendChild(tableOf(headers, search.children.map(function (c) {
        var cells = [c.label + (c.played ? " (played)" : ""), c.visits,
          c.share === null ? "-" : (100 * c.share).toFixed(1) + "%", rounded(c.q), rounded(c.heuristic), rounded(c.prior)];
        if (withFeatures) {
          featureNames.forEach(function (_, i) { cells.push(c.features ? rounded(c.features[i]) : "-"); });
        }
        return { className: c.played ? "played" : "", cells: cells };
      })));
      return;
    }
    panel.appendChild(note);
  }

  function describeDraws(turn, t) {
    var names = { discarded: "discarded: it fits nowhere", returned: "put back under the stack: it fits nowhere" };
    var parts = turn.not_placed.map(function (d) { return d.tile + " (" + names[d.fate] + ")"; });
    if (turn.move) parts.push(turn.move.tile + " (placed)");
    var out = parts.length ? "drawn: " + parts.join(", then ") : "";
    if (t === last && game.not_placed_at_end.length) {
      out += (out ? "; " : "") + "after the last move: " + game.not_placed_at_end.map(function (d) {
        return d.tile + " (" + names[d.fate] + ")";
      }).join(", ");
    }
    text("drawn", out);
  }

  function describeAnalyse(turn, t) {
    var note = document.getElementById("analyse-note");
    note.hidden = !(game.analyse_command && turn.move);
    if (!note.hidden) text("analyse", game.analyse_command[turn.move.player] + t);
  }

  // The turn the address names (#turn=T), if any.
  function turnInAddress() {
    var found = /^#turn=(\d+)$/.exec(window.location.hash);
    return found ? parseInt(found[1], 10) : null;
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
    describeSearch(turn);
    describeDraws(turn, current);
    describeAnalyse(turn, current);
    if (turnInAddress() !== current) {
      // The address follows the turn on display without filling the history.
      try {
        window.history.replaceState(null, "", "#turn=" + current);
      } catch (e) {
        window.location.replace("#turn=" + current);
      }
    }
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
  window.addEventListener("hashchange", function () {
    var t = turnInAddress();
    if (t !== null && t !== current) show(t);
  });
  show(turnInAddress() || 0);
})();
