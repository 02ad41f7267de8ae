"""The 19 advanced technologies of IEC-25 (names as shown in chat; effects live in rules.py)."""

from __future__ import annotations

from engine.core import N_

TECHS: dict[int, str] = {
    1: N_("Remote Drilling"),
    2: N_("Super Computer"),
    3: N_("Flexible Order"),
    4: N_("Intergrid Transformation"),
    5: N_("Advanced Mining"),
    6: N_("Advanced Processing"),
    7: N_("Compression"),
    8: N_("Fast Transmission"),
    9: N_("Missile Salvo"),
    10: N_("Multiple Targets"),
    11: N_("Anti-Missile System"),
    12: N_("Satellite Positioning System"),
    13: N_("Energy Recovery"),
    14: N_("Recycling"),
    15: N_("Construction Recovery"),
    16: N_("Government Subsidy"),
    17: N_("Scatter Mines"),
    18: N_("Total Mine War"),
    19: N_("Minesweepers"),
}
MINE_WAR_TECHS = (17, 18, 19)

# One line per technology for `/tech` (IEC-25 with the Chat Standard values, IEC-S-23).
TECH_EFFECTS: dict[int, str] = {
    1: N_(
        "Look at an undiscovered area's two deposits (one area per turn, /peek); choose the "
        "deposit of an area you discover."
    ),
    2: N_("Each further technology costs two cost steps less."),
    3: N_("Act first or last in the phases you choose (/flex, declared at the turn's start)."),
    4: N_("Give electric power to other players or receive it (/give)."),
    5: N_("A mine's successful extraction gives a second unit on 4+."),
    6: N_("An undamaged mixer makes a second product on 4+."),
    7: N_("An undamaged storage holds 5 units instead of 4."),
    8: N_("An undamaged transmitter launches a second BC on 4+."),
    9: N_("An undamaged launcher fires 3 missiles instead of 2."),
    10: N_("An undamaged launcher may split its missiles between 2 targets."),
    11: N_(
        "An undamaged launcher may cancel an enemy hit within 20 cm "
        "(1 AC, 4+; 5+ above radiation 6)."
    ),
    12: N_("An undamaged launcher hits on 3+ in extended range at radiation 6 or less."),
    13: N_("An undamaged reactor powers 12 buildings instead of 10."),
    14: N_("A developer may destroy a module within its range to recover 1 AB (/recycle)."),
    15: N_("A failed build is tried again at once with 2 more AB."),
    16: N_("Once, from turn 5: 2 modules of a new building land on any free cell (/subsidy)."),
    17: N_("Your real mines destroy a module on 4+ instead of 5+."),
    18: N_("Real mine limit +50%; 2 real mines for the price of one."),
    19: N_("Clear all tokens from one cell within 12 cm of your developer (/sweep)."),
}
