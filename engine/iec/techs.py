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
