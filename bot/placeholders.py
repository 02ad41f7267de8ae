"""The words in angle brackets of a usage line (`/new <game>`, `/build <city...>`), one catalog
entry each, so that help shows `/new <игра>` in Russian (issue 18). The key is the argument's
name in its `ArgSpec`; bot.grammar.usage looks the word up here. A new argument name gets its
entry here (tests/bot/test_i18n.py checks that every command's arguments have one)."""

from __future__ import annotations

from engine.core import N_

# TRANSLATORS: a placeholder in a command's usage line, e.g. "/new <game>": translate the word
# inside the angle brackets only, keep the brackets; a noun in its dictionary form.
PLACEHOLDERS: dict[str, str] = {
    "amount": N_("<amount>"),
    "answer": N_("<answer>"),
    "area": N_("<area>"),
    "building": N_("<building>"),
    "buildings": N_("<buildings>"),
    "cancel": N_("<cancel>"),
    "cell": N_("<cell>"),
    # TRANSLATORS: /lang's word, typed as it is ("/lang chat pl"): keep "chat".
    "chat": N_("<chat>"),
    "city": N_("<city>"),
    "code": N_("<code>"),
    "command": N_("<command>"),
    "confirm": N_("<confirm>"),
    "count": N_("<count>"),
    "developer": N_("<developer>"),
    "direction": N_("<direction>"),
    "duration": N_("<duration>"),
    "fakes": N_("<fakes>"),
    "figure": N_("<figure>"),
    "from": N_("<from>"),
    "fuel": N_("<fuel>"),
    "game": N_("<game>"),
    "hour": N_("<hour>"),
    "into": N_("<into>"),
    "keep": N_("<keep>"),
    "kind": N_("<kind>"),
    "laboratory": N_("<laboratory>"),
    "limit": N_("<limit>"),
    "max": N_("<max>"),
    "mine": N_("<mine>"),
    "mode": N_("<mode>"),
    "more": N_("<more>"),
    "moves": N_("<moves>"),
    "n": N_("<n>"),
    "name": N_("<name>"),
    "new": N_("<new>"),
    "old": N_("<old>"),
    "on": N_("<on>"),
    "options": N_("<options>"),
    "page": N_("<page>"),
    "phase": N_("<phase>"),
    "plant": N_("<plant>"),
    "plants": N_("<plants>"),
    "player": N_("<player>"),
    "position": N_("<position>"),
    "query": N_("<query>"),
    "real": N_("<real>"),
    "recipes": N_("<recipes>"),
    "region": N_("<region>"),
    "resource": N_("<resource>"),
    "settings": N_("<settings>"),
    "src": N_("<src>"),
    "steps": N_("<steps>"),
    "storages": N_("<storages>"),
    "switch": N_("<switch>"),
    "targets": N_("<targets>"),
    "tech": N_("<tech>"),
    "to": N_("<to>"),
    "transmitter": N_("<transmitter>"),
    "via": N_("<via>"),
    "what": N_("<what>"),
    "when": N_("<when>"),
}


# TRANSLATORS: the description of a command's argument in the menus (Discord's option
# descriptions), used for an argument whose command declares none; at most 100 characters.
ARG_HELP: dict[str, str] = {
    "building": N_("the building's cell"),
    "cancel": N_("cancel the order"),
    "cell": N_("the cell"),
    "confirm": N_("confirm that you mean it"),
    "count": N_("how many"),
    "developer": N_("the developer's cell"),
    "fakes": N_("the cells of the fake tokens"),
    "from": N_("where from"),
    "kind": N_("what to build"),
    "laboratory": N_("the laboratory's cell"),
    "mine": N_("the mine's cell"),
    "mode": N_("when to use it"),
    "on": N_("on or off"),
    "phase": N_("the phase's number"),
    "player": N_("the player's name"),
    "position": N_("your place: first, last or unchanged"),
    "real": N_("the real mine's cell"),
    "recipes": N_("the recipes, most wanted first"),
    "resource": N_("the resource"),
    "switch": N_("on or off"),
    "targets": N_("the targets, as you would type them"),
    "tech": N_("the technology"),
    "to": N_("where to"),
    "transmitter": N_("the transmitter's cell"),
    "what": N_("what to vote on"),
}

# TRANSLATORS: the label of a value offered in a menu (Discord's choices) in place of the word
# itself; the word typed stays the English one, so translate the meaning; short.
CHOICE_LABELS: dict[str, str] = {
    "auto": N_("automatically, when it first acts"),
    "cancel": N_("cancel"),
    # TRANSLATORS: /lang's choice that sets the chat's language instead of the player's own.
    "chat": N_("this chat's language"),
    "confirm": N_("confirm"),
    "economic": N_("economic bot"),
    # TRANSLATORS: the languages offered by /lang: the name in your language, then in its own.
    "en": N_("English"),
    "pl": N_("Polish (polski)"),
    "ru": N_("Russian (русский)"),
    "zh-hant": N_("Traditional Chinese (繁體中文)"),
    "first": N_("first"),
    "greedy": N_("greedy bot"),
    "heuristic": N_("heuristic bot"),
    "last": N_("last"),
    "no": N_("no"),
    "none": N_("none"),
    "now": N_("now"),
    "plant": N_("plant: pass on this auction when my turn comes"),
    "random": N_("random bot"),
    "replace": N_("replace a silent player with a bot"),
    "round": N_("round: no more auctions for me this round"),
    "rush": N_("rushing bot"),
    "strong": N_("strong bot"),
    "unchanged": N_("unchanged"),
    "yes": N_("yes"),
}


def arg_help(name: str, declared: str) -> str:
    """An argument's menu description: the one its command declares, else ARG_HELP's for its
    name, else the name itself."""
    return declared or ARG_HELP.get(name, name)


def choice_label(value: str) -> str:
    """The catalog message labelling a choice `value` in a menu (the value itself when it is a
    code such as "NE" or "AB" that reads the same in every language)."""
    return CHOICE_LABELS.get(value, value)
