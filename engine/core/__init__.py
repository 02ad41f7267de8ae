"""The game protocol every game folder implements, and the small pure helpers they share."""

from engine.core.errors import N_, NP_, IllegalAction, MissingArgument, ParseError, Term, worded
from engine.core.jsonstate import canonical_json, copy_state, load_state
from engine.core.protocol import (
    Action,
    ArgSpec,
    BotFn,
    CommandSpec,
    EnglishTranslator,
    Event,
    Game,
    OptionSpec,
    Ranking,
    Reply,
    State,
    Translator,
)
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.core.sentences import Listed, join_list, join_sentences, sentence_gap

__all__ = [
    "NP_",
    "N_",
    "Action",
    "ArgSpec",
    "BotFn",
    "CommandSpec",
    "EnglishTranslator",
    "Event",
    "Game",
    "IllegalAction",
    "Listed",
    "MissingArgument",
    "OptionSpec",
    "ParseError",
    "Ranking",
    "Reply",
    "Rng",
    "State",
    "Term",
    "Translator",
    "canonical_json",
    "copy_state",
    "join_list",
    "join_sentences",
    "load_state",
    "replay",
    "sentence_gap",
    "worded",
]
