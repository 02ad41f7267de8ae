"""Translation quality checks that can be automated (issue 18, the native-quality pass).

Completeness, placeholders and command names are also in test_i18n.py; this file checks what
reads machine-made: abbreviated count words where the catalog could say them in full, gender
hacks, Simplified characters in the Traditional catalog, Latin "TP" in Russian, terms that
differ from the original rule documents (/work/shared/seeds/), and the games' own names.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot.i18n import tr, translator
from bot.locale import update
from bot.locale.checks import problems
from engine.registry import games

TARGETS = ("ru", "pl", "zh_Hant")

# Common characters that exist only in Simplified Chinese, with their Traditional forms.
# Characters that are also correct Traditional (后, 里, 台, 只, 几, 干, 余, 准, 云, ...) are
# deliberately absent.
SIMPLIFIED_ONLY: dict[str, str] = dict(
    zip(
        "这个们时会说对发还没过经么国来为与将买卖钱电厂场输赢点数选择设认识请让该开关门问间题显"
        "图应当进动从双边区东车转轮线网络级组结给统编码价资贵费购货账单号张长钟处种样计运连远达"
        "谁话语读写规则须实现务员页项领预顺闭杂团圆气废铀厅阶竞标弃权负战乱鸟龙马历华顿约纽伦罗"
        "兰亚尔维纳奥萨诺乌汉莱锡鲁麦贝圣旧迈凤盐逊兹岛湾阳阴议论变压离难观视觉见亲杀伤损坏块坚"
        "尽层属带帮币师归录总态恶惊惯扩护报挡据掷换毁敌无术条极构枪树检楼欢毕测济满灭灯炉热爱状"
        "独环画盘盖矿确积称稳穷笔筑签简类紧红纪纸练细终继续罚职联脑艺节药获补装览订记讲许证评试"
        "询误调败质赛轨软较递遗邮铁银链错键闲队际随隐雾顶频风饭驱验鸡齐着",
        "這個們時會說對發還沒過經麼國來為與將買賣錢電廠場輸贏點數選擇設認識請讓該開關門問間題顯"
        "圖應當進動從雙邊區東車轉輪線網絡級組結給統編碼價資貴費購貨賬單號張長鐘處種樣計運連遠達"
        "誰話語讀寫規則須實現務員頁項領預順閉雜團圓氣廢鈾廳階競標棄權負戰亂鳥龍馬歷華頓約紐倫羅"
        "蘭亞爾維納奧薩諾烏漢萊錫魯麥貝聖舊邁鳳鹽遜茲島灣陽陰議論變壓離難觀視覺見親殺傷損壞塊堅"
        "盡層屬帶幫幣師歸錄總態惡驚慣擴護報擋據擲換毀敵無術條極構槍樹檢樓歡畢測濟滿滅燈爐熱愛狀"
        "獨環畫盤蓋礦確積稱穩窮筆築簽簡類緊紅紀紙練細終繼續罰職聯腦藝節藥獲補裝覽訂記講許證評試"
        "詢誤調敗質賽軌軟較遞遺郵鐵銀鏈錯鍵閒隊際隨隱霧頂頻風飯驅驗雞齊著",
        strict=True,
    )
)

# Count words people would otherwise see abbreviated ("10 очк."): the catalogs say them in
# full, or restructure the sentence ("очков: 10"), since ngettext gives every count its form.
ABBREVIATIONS = {
    "ru": re.compile(r"\b(очк|ед|шт|гор|стан|фиш|кл)\.", re.IGNORECASE),
    "pl": re.compile(r"\b(pkt|szt)\b\.?", re.IGNORECASE),
}
# Switch values spelt out, not "вкл."/"выкл." next to other messages saying "включить".
SHORT_SWITCH = {
    "ru": re.compile(r"\b(вкл|выкл)\.", re.IGNORECASE),
    "pl": re.compile(r"\b(wł|wył)\.", re.IGNORECASE),
}
# Russian "выбросил(а)", "сделал(а)": a gender hack that reads machine-made.
GENDER_HACK = re.compile(r"\w\((а|ла|ась)\)")

# Terms as the original rule documents (/work/shared/seeds/) name them: (language, source
# files the message comes from, pattern that must not appear, what the original says).
TERMS = [
    # Hexania, Russian original: приращение, перемещение, фигура "схлопывается".
    ("ru", "engine/hexania/", re.compile(r"разруш|\bРост\b|вязкое"), "схлопывается, приращение"),
    # Power Grid alternative rules, Russian original: трансформаторная подстанция (ТП).
    ("ru", "engine/powergrid_alt/", re.compile(r"\bTP\b"), "ТП"),
    # IEC, Polish original: konstruktor, mikser, transmitter; technologies by their names.
    (
        "pl",
        "engine/iec/",
        re.compile(r"deweloper|mieszalnik|nadajnik|Zdalne wiercen|Elastyczna kolejność"),
        "konstruktor, mikser, transmiter, Zdalne odwierty, Elastyczna kolejka",
    ),
    # Power Grid, Chinese rule document: 步驟 (phase) / 階段 (Step), 燃料, 競標, 廢物, 行政管理.
    (
        "zh_Hant",
        "engine/powergrid",
        re.compile(r"時期|拍賣|資源|垃圾|官僚|環保"),
        "步驟/階段, 燃料, 競標, 廢物, 行政管理, 生態",
    ),
    # Power Grid alternative rules in Chinese: the substation, not an English "TP".
    ("zh_Hant", "engine/powergrid_alt/", re.compile(r"\bTP\b"), "變電站"),
    # ... and in Polish: a podstacja (transformatorowa).
    ("pl", "engine/powergrid_alt/", re.compile(r"\bTP\b"), "podstacja"),
]

GAME_NAMES = {
    "ru": {"powergrid": "Энергосеть", "hexania": "Гексания"},
    "pl": {"powergrid": "Wysokie Napięcie"},
    "zh_Hant": {"powergrid": "發電廠"},
}


def po(lang: str) -> Catalog:
    with update.po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang)


CATALOGS = {lang: po(lang) for lang in TARGETS}


def forms(message: Message) -> list[str]:
    if isinstance(message.string, str):
        return [message.string]
    assert message.string is not None
    return list(message.string)


def messages(lang: str) -> list[Message]:
    return [m for m in CATALOGS[lang] if m.id]


def where(message: Message) -> list[str]:
    return [path for path, _ in message.locations]


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_no_abbreviated_count_words(lang: str) -> None:
    bad = [(m.id, s) for m in messages(lang) for s in forms(m) if ABBREVIATIONS[lang].search(s)]
    assert not bad


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_switch_words_are_spelt_out(lang: str) -> None:
    bad = [(m.id, s) for m in messages(lang) for s in forms(m) if SHORT_SWITCH[lang].search(s)]
    assert not bad


def test_no_russian_gender_hacks() -> None:
    bad = [(m.id, s) for m in messages("ru") for s in forms(m) if GENDER_HACK.search(s)]
    assert not bad


# A Polish past tense addressed to the reader names a gender ("Odpadłeś", "wpisałbyś"): the
# bot does not know the reader's, so it is worded without one ("Nie grasz już w tej grze").
POLISH_GENDERED_YOU = re.compile(r"\w(?:łeś|łaś|łbyś|łabyś)\b")


def test_polish_speaks_to_the_reader_without_a_gender() -> None:
    bad = [(m.id, s) for m in messages("pl") for s in forms(m) if POLISH_GENDERED_YOU.search(s)]
    assert not bad


# A Russian past tense after a player's name names a gender ("{player} выбросил", "@{name}
# вернулся: место снова за ним"): player names are free text, so the lines about a player are
# worded without one (present tense, "{player}: решение принято", "хозяин места").
RUSSIAN_GENDERED_PLAYER = re.compile(
    r"\{(?:player|name|mention)\}\s+(?:(?:уже|ещё|не|так|и)\s+)*[а-яё]+(?:л|лся|ёл)\b"
    r"|\{(?:player|name)\}[^.]*\b(?:за него|пока он|за ним|[Пп]ринял|согласен)\b"
    # a word said of a player on its own: "ann (выбыл)" in a ranking (found playing)
    r"|^(?:выбыл|выбыла|сдался|сдалась)\b"
)


def test_russian_names_a_player_without_a_gender() -> None:
    bad = [(m.id, s) for m in messages("ru") for s in forms(m) if RUSSIAN_GENDERED_PLAYER.search(s)]
    assert not bad


def test_traditional_chinese_has_no_simplified_only_characters() -> None:
    assert not set(SIMPLIFIED_ONLY) & set(SIMPLIFIED_ONLY.values())
    bad = {
        (m.id if isinstance(m.id, str) else m.id[0], ch)
        for m in messages("zh_Hant")
        for s in forms(m)
        for ch in s
        if ch in SIMPLIFIED_ONLY
    }
    assert not bad


@pytest.mark.parametrize("lang", TARGETS)
def test_placeholders_and_command_names_are_preserved(lang: str) -> None:
    assert problems(CATALOGS[lang]) == []


def test_russian_says_tp_in_cyrillic_for_the_substation() -> None:
    """The alternative rules' трансформаторная подстанция is "ТП" in the Russian original."""
    tp = re.compile(r"(?<![/\w])TPs?\b")
    naming = [m for m in messages("ru") if tp.search(m.id if isinstance(m.id, str) else m.id[0])]
    assert naming, "the catalog should have the TP messages of powergrid_alt"
    for message in naming:
        for text in forms(message):
            assert "ТП" in text, (message.id, text)
            assert not re.search(r"\bTP\b", text), (message.id, text)


@pytest.mark.parametrize(("lang", "forms_count"), [("ru", 3), ("pl", 3), ("zh_Hant", 1)])
def test_plural_entries_have_every_form_filled(lang: str, forms_count: int) -> None:
    catalog = CATALOGS[lang]
    assert catalog.num_plurals == forms_count
    plural = [m for m in messages(lang) if m.pluralizable]
    assert plural
    for message in plural:
        texts = forms(message)
        assert len(texts) == forms_count, message.id
        assert all(t.strip() for t in texts), message.id


@pytest.mark.parametrize(("lang", "source", "pattern", "original"), TERMS)
def test_terms_follow_the_original_rule_documents(
    lang: str, source: str, pattern: re.Pattern[str], original: str
) -> None:
    concerned = [m for m in messages(lang) if any(p.startswith(source) for p in where(m))]
    assert concerned
    bad = [(m.id, s) for m in concerned for s in forms(m) if pattern.search(s)]
    assert not bad, f"use the original's terms ({original})"


@pytest.mark.parametrize("lang", TARGETS)
def test_every_game_name_is_a_translated_catalog_entry(lang: str) -> None:
    for game in games().values():
        entry = CATALOGS[lang].get(game.name)
        assert entry is not None and entry.string, (lang, game.name)
        assert translator(lang).gettext(game.name) == entry.string


@pytest.mark.parametrize("lang", TARGETS)
def test_games_are_called_as_their_editions_are(lang: str) -> None:
    all_games = games()
    for game_id, expected in GAME_NAMES[lang].items():
        assert translator(lang).gettext(all_games[game_id].name) == expected
    # The variant carries the edition's name too.
    variant = translator(lang).gettext(all_games["powergrid_alt"].name)
    assert variant.startswith(GAME_NAMES[lang]["powergrid"])


@pytest.mark.parametrize("lang", TARGETS)
@pytest.mark.parametrize("game_id", sorted(games()))
def test_first_buttons_are_worded_in_the_readers_language(game_id: str, lang: str) -> None:
    """A game's first prompt carries buttons; their labels come through the catalog (a label
    built by hand, like Hexania's "Spawn A4" once was, stays English in every chat)."""
    game = games()[game_id]
    players = ["ann", "bob", "cyd"]
    state = game.setup(players, {}, 5)
    player = game.current_players(state)[0]
    english = game.buttons(state, player, translator("en"))
    theirs = game.buttons(state, player, translator(lang))
    assert english, f"{game_id} asks its first player without buttons"
    assert [c for _, c in theirs] == [c for _, c in english]
    # labels with words in them (a bare plant number reads the same everywhere)
    worded = [i for i, (label, _) in enumerate(english) if any(ch.isalpha() for ch in label)]
    assert all(theirs[i][0] != english[i][0] for i in worded), theirs


# Chinese sets no space between two characters; a placeholder filled with a phrase that begins
# or ends with one read "alice 要 用 /bid" ("{who} 要 {what}") or "以 6 元 買下" ("以 {price} 買下"
# with "6 元"). Spaces stay around Latin names, numbers and commands, and between a command's
# argument names ("/grow 圖形 格子").
SPACE_BETWEEN_HANZI = re.compile(r"[\u3400-\u9fff] +[\u3400-\u9fff]")
# Nor a space after its full-width marks: sentences joined with " " read "（步驟 3）。 p1：…"
# (engine/core/sentences.py).
SPACE_AFTER_FULL_WIDTH = re.compile(r"[。！？；：，、）」] ")
COMMAND_SYNTAX = re.compile(r"/\w+(?: [^\s，。、；：（）]+)*")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_chinese_prompts_and_log_lines_put_no_space_between_characters_or_after_marks(
    game_id: str,
) -> None:
    from engine.core import Rng

    game = games()[game_id]
    # Latin and Chinese player names: "小明擲出 4+3" but "bo 擲出 4+3" (bot/i18n.py)
    names = ["小明", "bo", "阿華", "p3"]
    players = names[: max(game.min_players, min(4, game.max_players))]
    kind = "heuristic" if "heuristic" in game.bots else next(iter(game.bots))
    state = game.setup(players, {}, 7)
    rng = Rng({"s": 7})
    t = translator("zh_Hant")
    seen: set[str] = set()
    for _ in range(3000):
        if game.is_over(state):
            break
        who = game.current_players(state)[0]
        lines = [game.describe_turn(state, None, t), game.describe_turn(state, who, t)]
        state, events = game.apply(state, who, game.bots[kind](state, who, rng))
        lines += [game.describe_event(state, e, t) or "" for e in events]
        for text in lines:
            assert not SPACE_BETWEEN_HANZI.search(COMMAND_SYNTAX.sub("", text)), text
            assert not SPACE_AFTER_FULL_WIDTH.search(text), text
        seen.update(lines)
    assert game.is_over(state) and len(seen) > 50  # a whole game's prompts and lines were read


@pytest.mark.parametrize("lang", TARGETS)
def test_power_grid_resource_counts_read_in_the_counts_plural_form(lang: str) -> None:
    """PG-27's returned tokens, the keep choices and the refill button said "2 уголь": a bare
    number before the name. They take the catalog's plural entry, as the variant's do."""
    from engine.powergrid.wording import count_text, keep_text

    t = translator(lang)
    for n in (1, 2, 5):
        expected = t.ngettext("{n} {resource}", "{n} {resource}", n)
        assert count_text(t, "coal", n) == expected.format(n=n, resource=t.gettext("coal"))
    assert keep_text(t, {"coal": 2, "oil": 0}) == count_text(t, "coal", 2)
    if lang != "zh_Hant":  # "уголь × 2", "węgiel × 2"; Chinese counts with 個 before the name
        assert not keep_text(t, {"coal": 2})[0].isdigit()


def test_sentences_join_with_a_space_except_after_a_full_width_mark() -> None:
    from engine.core import join_sentences, sentence_gap

    assert join_sentences("Round 2.", "", "Waiting for ann.") == "Round 2. Waiting for ann."
    assert join_sentences("Раунд 2.", "Ждём ann.") == "Раунд 2. Ждём ann."
    assert join_sentences("第 2 回合。", "等待 ann。", "(PG-22)") == "第 2 回合。等待 ann。(PG-22)"
    assert join_sentences("用 /done", "（步驟 3）") == "用 /done （步驟 3）"
    assert sentence_gap("") == " " and sentence_gap("完成）") == ""


@pytest.mark.parametrize("lang", ["en", *TARGETS])
def test_a_refusal_and_its_rule_read_as_the_language_sets_them(lang: str) -> None:
    """PG-22's refusal ends in its rule id: "… (50 E). (PG-22)" in English, "…（50 元）。(PG-22)"
    in Chinese, never "。 (PG-22)"."""
    from bot.i18n import explain, tr
    from engine.core import IllegalAction

    err = IllegalAction("PG-22", "You cannot bid more than your money ({money} E).", money=50)
    text = explain(lang, err)
    assert text.endswith("(PG-22)")
    assert lang == "en" or tr(lang, err.message_key, money=50) != err.english()  # translated
    assert not SPACE_AFTER_FULL_WIDTH.search(text), text
    gap = "" if lang == "zh_Hant" else " "
    assert text == tr(lang, err.message_key, money=50) + gap + "(PG-22)"


@pytest.mark.parametrize(
    ("message", "params", "expected"),
    [
        (
            "{game} begins! Players in seat order: {names}.",
            {"game": "發電廠", "names": "ann"},
            "發電廠開始！依座位順序的玩家：ann。",
        ),
        (
            "{game} begins! Players in seat order: {names}.",
            {"game": "Hexania", "names": "ann"},
            "Hexania 開始！依座位順序的玩家：ann。",
        ),
        ("Most waiting so far is on {name}.", {"name": "小明"}, "到目前為止，大家等小明等得最久。"),
        ("Most waiting so far is on {name}.", {"name": "bob"}, "到目前為止，大家等 bob 等得最久。"),
        ("{game} commands:", {"game": "發電廠（替代規則）"}, "發電廠（替代規則）指令："),
    ],
)
def test_chinese_drops_a_templates_space_only_where_a_value_meets_a_character(
    message: str, params: dict[str, str], expected: str
) -> None:
    """The catalog cannot know whether {game} or {name} will be Latin or Chinese: "{game} 開始！"
    keeps its space for Hexania and loses it for 發電廠 (bot/i18n.py `_set_chinese`)."""
    from bot.i18n import tr

    assert tr("zh_Hant", message, **params) == expected


def test_chinese_values_with_a_format_spec_are_set_the_same_way() -> None:
    from bot.i18n import _set_chinese

    assert _set_chinese("{share:.0%} 的玩家", {"share": 0.5}) == "50% 的玩家"
    assert _set_chinese("{game!s} 開始", {"game": "發電廠"}) == "發電廠開始"
    assert _set_chinese("等 {name} 等", {"name": "小明"}) == "等小明等"


def test_traditional_chinese_calls_a_turn_one_word_everywhere() -> None:
    """Found playing IEC (2026-11-29): "第 2 回合" in the text, "第 2 輪" in the pictures."""
    bad = [(m.id, s) for m in messages("zh_Hant") for s in forms(m) if "{turn} 輪" in s]
    assert not bad


@pytest.mark.parametrize("lang", TARGETS)
def test_usage_placeholders_name_the_iec_mine_building_and_resources(lang: str) -> None:
    """Found playing (2026-12-02): /help extract read "/extract <мина>" / "<地雷>" (a land
    mine, the Mine War's token) for the mine building /extract sets (шахта, 礦場), and the
    Chinese "<resource>" said 燃料 (fuel) for IEC's A, B, C."""
    assert tr(lang, "<mine>") == f"<{tr(lang, 'mine')}>"
    assert tr(lang, "<resource>") == f"<{tr(lang, 'the resource')}>"
