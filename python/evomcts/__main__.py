"""``python -m evomcts ARGS``: the ``evomcts`` command line, run in this Python, where the
games of OpenSpiel (``pip install open_spiel``) are playable: a spec naming
``OpenSpiel(name: ..., params: ...)`` runs here with every command (``league``, ``evolve``,
``validate``, ``tune``, ``study``, ``replay``, ``table``, ``report``). See docs/openspiel.md
and docs/study.md.
"""

import signal
import sys

from ._evomcts import main


def _run() -> int:
    # Ctrl-C ends the process as it ends the binary: runs write every record whole, so an
    # interrupted run resumes (`--resume`) where it stopped.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    return main(["evomcts", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(_run())
