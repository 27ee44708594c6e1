"""Which of OpenSpiel's registered games evomcts plays: each game loaded with its default
parameters and put through the check every spec naming it passes (two players, sequential,
perfect information, zero- or constant-sum, explicit chance; at most 256 chance outcomes).

    python python/benches/openspiel_games.py
"""

import collections
import json

import pyspiel

from evomcts import _evomcts

playable, refused = [], collections.Counter()
for name in sorted(pyspiel.registered_names()):
    why = _evomcts.open_spiel_refusal(name)
    if why is None:
        playable.append(name)
    else:
        # The reason's first clause: the property that failed, or OpenSpiel's load error.
        reason = why.split(": ", 1)[-1].split(";")[0]
        refused[reason[:80]] += 1
print(json.dumps({
    "open_spiel": pyspiel.__version__,
    "registered": len(pyspiel.registered_names()),
    "playable": len(playable),
    "playable_games": playable,
    "refused_by_reason": refused.most_common(),
}, indent=2))
