"""Race to ten, a game written in Python for evomcts (docs/python.md, "A game written in Python").

Two players take turns adding 1 or 2 to a running total that starts at 0; the player who brings
it to exactly 10 wins. Importing this module registers the game with OpenSpiel as
``python_race_to_ten`` (``pyspiel.register_game``), so a spec that names the module in its
``import`` field plays it:

    game: OpenSpiel(name: "python_race_to_ten", import: ["race_to_ten"])

The first player wins with perfect play (leave the total at 1, 4 or 7), which makes the game a
small check that a search finds the winning line.
"""

import pyspiel

TARGET = 10
STEPS = (1, 2)

_GAME_TYPE = pyspiel.GameType(
    short_name="python_race_to_ten",
    long_name="Race to ten (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=len(STEPS),
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=TARGET,
)


class RaceToTenGame(pyspiel.Game):
    """The game: its type, its sizes, and its start state."""

    def __init__(self, params=None):
        super().__init__(_GAME_TYPE, _GAME_INFO, params or dict())

    def new_initial_state(self):
        return RaceToTenState(self)


class RaceToTenState(pyspiel.State):
    """The total so far and whose turn it is; action k adds ``STEPS[k]``."""

    def __init__(self, game):
        super().__init__(game)
        self.total = 0
        self.mover = 0

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.is_terminal() else self.mover

    def _legal_actions(self, player):
        return [k for k, step in enumerate(STEPS) if self.total + step <= TARGET]

    def _apply_action(self, action):
        self.total += STEPS[action]
        if not self.is_terminal():
            self.mover = 1 - self.mover

    def _action_to_string(self, player, action):
        return f"+{STEPS[action]}"

    def is_terminal(self):
        return self.total == TARGET

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.mover == 0 else [-1.0, 1.0]

    def __str__(self):
        return f"total {self.total}, player {self.mover} to move"


pyspiel.register_game(_GAME_TYPE, RaceToTenGame)
