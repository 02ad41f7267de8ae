"""The end of a game in pictures (issue 25): a game-over card, line charts per player per
round, and a short replay animation of the phase pictures.

`series.replay_figures` replays setup + the action log with the game's small per-game
figures function (engine/<game>/logtext.py: `period`, `score`, `SERIES`, `deciding`);
`card`, `charts` and `replay` draw with Pillow (only these render modules import it).
"""
