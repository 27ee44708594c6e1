#!/usr/bin/env python3
"""Does fitting the best survivors' constants (noise.fit_constants) help evolution on the
bandit? (stdlib Python)

For master seeds 1..10, runs/evolve/bandit.ron is evolved twice: as it is ("plain") and with
`fit_constants: (candidates: 2, steps: 4, samples: 50)` ("fitted"), into
runs/mine/fitting/<variant>-s<seed>/. Each champion's regret is measured by
`evomcts validate bandit` on 4,000 fresh runs; writes runs/evolve/fitting/bandit.csv and prints
fitted - plain with a t interval and the exact Wilcoxon p over the 10 seeds, as
runs/evolve/perturbation/bandit.py does for constant perturbation (whose loop this reuses).
A finished run folder is not evolved again, so the script resumes.

Run from the repository root: python3 runs/evolve/fitting/bandit.py [path/to/evomcts]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "perturbation"))
from bandit import compare, spec_text  # noqa: E402

FIT = "fit_constants: (candidates: 2, steps: 4, samples: 50)"


def fitted(seed):
    text = spec_text("paper", seed)
    return text.replace("elite_samples: 200)", f"elite_samples: 200, {FIT})")


if __name__ == "__main__":
    assert FIT in fitted(1)
    compare("runs/evolve/fitting", "runs/mine/fitting",
            {"plain": lambda seed: spec_text("paper", seed), "fitted": fitted}, "variant")
