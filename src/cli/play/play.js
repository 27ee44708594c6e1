// The page of `evomcts play --serve`: shows the game the server publishes (GET state) and
// sends the person's move (POST move). Every text from the server is shown as text; the one
// piece of HTML, the table of root statistics, is the report's table, escaped by the server.
'use strict';

(function () {
  var version = -1;
  var byId = function (id) { return document.getElementById(id); };

  function setState(state) {
    document.body.setAttribute('data-state', state);
  }

  function showError(message) {
    byId('error').textContent = message;
  }

  function render(view) {
    version = view.version;
    byId('status').textContent = view.status || '';
    byId('board').textContent = view.board === null || view.board === undefined
      ? '(this game draws no picture of its positions)' : view.board;
    var moves = byId('moves');
    moves.textContent = view.result ? '(none: the game is over)'
      : view.your_turn ? '' : '(the controller is to move)';
    (view.moves || []).forEach(function (m) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.setAttribute('data-key', m.key);
      button.title = 'move ' + m.key;
      button.textContent = m.notation;
      button.addEventListener('click', function () { play(m.key); });
      moves.appendChild(button);
    });
    if (view.answer) {
      byId('answer-line').textContent = view.answer.line;
      byId('search').innerHTML = view.answer.table || '';
    }
    var log = byId('log');
    log.textContent = '';
    (view.log || []).forEach(function (line) {
      var item = document.createElement('li');
      item.textContent = line;
      log.appendChild(item);
    });
    if (view.result) {
      byId('result').textContent = view.result;
      byId('recorded').textContent = view.recorded || '';
      setState('over');
    } else {
      setState(view.your_turn ? 'your-move' : 'waiting');
    }
  }

  // Asks for the state once it is newer than the one shown (at once when `now`), until it is
  // the person's move or the game is over.
  function poll(now) {
    fetch('state?after=' + (now ? -1 : version), { cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) {
          return response.text().then(function (text) { throw new Error(text); });
        }
        return response.json();
      })
      .then(function (view) {
        render(view);
        if (!view.your_turn && !view.result) {
          poll();
        }
      })
      .catch(function (error) {
        setState('error');
        showError('the server did not answer: ' + error.message);
      });
  }

  function play(key) {
    setState('waiting');
    showError('');
    Array.prototype.forEach.call(document.querySelectorAll('#moves button'), function (b) {
      b.disabled = true;
    });
    byId('status').textContent = 'waiting for the answer';
    fetch('move', { method: 'POST', body: key, headers: { 'Content-Type': 'text/plain' } })
      .then(function (response) {
        return response.text().then(function (text) {
          if (!response.ok) {
            throw new Error(text);
          }
          poll();
        });
      })
      .catch(function (error) {
        showError(error.message);
        poll(true);
      });
  }

  setState('loading');
  poll(true);
})();
