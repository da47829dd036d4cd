"""The words printed on the PDFs, in English, Japanese and Chinese.

The printing layer renders outside Django (Celery workers, command line), so it carries its own
small vocabulary instead of gettext catalogues. Every heading and fixed label of a sheet is in
the sheet language the director chose (``lang``), and nothing else: a Japanese seating sheet
reads 座席表 / 選手 / 卓 / 席 and 東家, with no English beside it. What the sheets print as it is
comes from the event (its name, the rule set's name, notes and hand-ending rule, player names),
and codes (set codes, slot labels ``H1``/``D21``, the seat letter in a wall sticker's box) are the
same in every language.

Numbers follow the word (``"Table 3"``, ``"卓 3"``, ``"桌 3"``), as on a form: one pattern for
every language, which keeps the words of a wall sticker to this vocabulary (tests/
test_sticker_secrecy.py checks a sticker prints nothing else).
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "ja", "zh")

SEAT_NAMES = {
    "en": {"E": "East", "S": "South", "W": "West", "N": "North"},
    "ja": {"E": "東家", "S": "南家", "W": "西家", "N": "北家"},
    "zh": {"E": "东家", "S": "南家", "W": "西家", "N": "北家"},
}
"""Seat letter → the seat as a word (headings, the players of a score sheet, sticker headers)."""

SEAT_LABELS = {
    "en": {"E": "E", "S": "S", "W": "W", "N": "N"},
    "ja": {"E": "東", "S": "南", "W": "西", "N": "北"},
    "zh": {"E": "东", "S": "南", "W": "西", "N": "北"},
}
"""Seat letter → its short label (column heads, the seat column of a seating sheet, pick lists).
Never printed on a wall sticker: 東 alone is also the East Wind tile."""

WORDS = {
    "en": {
        "set": "Set", "sets": "Sets", "session": "Session", "seat": "Seat", "table": "Table", "group": "Group",
        "first": "First at", "each_group": "of each group",
        "stickers": "Wall stickers", "sheet": "sheet", "of": "of", "shared": "Shared",
        "setup": "Set-up sheet", "setup_sheets": "Set-up sheets", "labels": "Set labels",
        "pick_list": "Pick list", "commitment": "Seed commitment",
        "hand": "Starting hand", "draw": "Draw pile", "live": "Live wall", "dead": "Dead wall",
        "end_rule": "Hand ends", "ruleset": "Rule set", "score_sheet": "Score sheet", "score_sheets": "Score sheets",
        "movement": "Movement", "slot": "Round", "next": "then to", "cont": "continued",
        "laid": "Laid", "checked": "Checked", "stuck": "Stickers on", "tile": "Tile",
        "copies": "copies", "where": "Set · seat · slot", "players": "Players", "player": "Player",
        "team": "Team", "room": "Room", "seating": "Seating", "page": "page",
        "scan_login": "Scan to enter results", "code": "Code", "winner": "Winner / fan",
        "initials": "Initials", "total": "Total", "hand_no": "Hand", "print_actual": "Print at 100 % (actual size)",
        "stickers_for": "stickers", "sign": "Players' signatures", "result_check": "Set code checked",
        "pin": "PIN", "keep_pin": "Keep your PIN to yourself", "find_seat": "Find my seat",
        "player_cards": "Player cards", "not_seated": "Not seated yet", "room_seating": "Seating by room",
    },
    "ja": {
        "set": "セット", "sets": "セット", "session": "回戦", "seat": "席", "table": "卓", "group": "グループ",
        "first": "最初の卓", "each_group": "各グループ",
        "stickers": "牌ヤマシール", "sheet": "シート", "of": "/", "shared": "共通",
        "setup": "牌セット配置表", "setup_sheets": "牌セット配置表", "labels": "セットラベル",
        "pick_list": "ピックリスト", "commitment": "シードのハッシュ",
        "hand": "配牌", "draw": "ツモヤマ", "live": "山", "dead": "王牌",
        "end_rule": "終局条件", "ruleset": "ルール", "score_sheet": "記録用紙", "score_sheets": "記録用紙",
        "movement": "ムーブメント", "slot": "場", "next": "次は", "cont": "続き",
        "laid": "配置", "checked": "確認", "stuck": "シール", "tile": "牌",
        "copies": "枚", "where": "セット・席・位置", "players": "選手", "player": "選手",
        "team": "チーム", "room": "会場", "seating": "座席表", "page": "ページ",
        "scan_login": "スキャンして結果入力", "code": "コード", "winner": "和了者 / 点",
        "initials": "署名", "total": "合計", "hand_no": "局", "print_actual": "実寸(100%)で印刷",
        "stickers_for": "枚", "sign": "選手署名", "result_check": "セット番号確認",
        "pin": "PIN", "keep_pin": "PINは他人に教えないでください", "find_seat": "座席検索",
        "player_cards": "選手カード", "not_seated": "未配席", "room_seating": "会場別座席表",
    },
    "zh": {
        "set": "牌组", "sets": "牌组", "session": "轮次", "seat": "座位", "table": "桌", "group": "组",
        "first": "首桌", "each_group": "各组",
        "stickers": "牌墙贴纸", "sheet": "页", "of": "/", "shared": "公共",
        "setup": "牌组摆放表", "setup_sheets": "牌组摆放表", "labels": "牌组标签",
        "pick_list": "拣牌清单", "commitment": "种子哈希",
        "hand": "起手牌", "draw": "摸牌墙", "live": "牌墙", "dead": "王牌区",
        "end_rule": "终局条件", "ruleset": "规则", "score_sheet": "记分表", "score_sheets": "记分表",
        "movement": "轮转表", "slot": "轮", "next": "移至", "cont": "续",
        "laid": "摆放", "checked": "核对", "stuck": "贴纸", "tile": "牌",
        "copies": "张", "where": "牌组・座位・位置", "players": "选手", "player": "选手",
        "team": "队伍", "room": "房间", "seating": "座位表", "page": "页",
        "scan_login": "扫码录入成绩", "code": "代码", "winner": "和牌者 / 番",
        "initials": "签名", "total": "合计", "hand_no": "盘", "print_actual": "按实际尺寸(100%)打印",
        "stickers_for": "张", "sign": "选手签名", "result_check": "牌组编号已核对",
        "pin": "PIN", "keep_pin": "请勿向他人透露PIN", "find_seat": "查找座位",
        "player_cards": "选手卡", "not_seated": "尚未排座", "room_seating": "分房间座位表",
    },
}
"""Key → word, per language; every language has the same keys."""


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is printable, else raise ValueError naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"lang: unknown language {lang!r}; use one of {', '.join(LANGS)}")
    return lang


def word(key: str, lang: str) -> str:
    """The word ``key`` in ``lang`` (``word("seating", "ja")`` → ``"座席表"``). Raises KeyError
    for an unknown key or language."""
    return WORDS[lang][key]


def numbered(key: str, value: Any, lang: str) -> str:
    """The word ``key`` then ``value``: ``numbered("table", 3, "ja")`` → ``"卓 3"``,
    ``numbered("session", 1, "en")`` → ``"Session 1"``."""
    return f"{WORDS[lang][key]} {value}"


def table_label(table: Any, lang: str) -> str:
    """A table as printed: a number (``3`` or ``"3"``) → ``"Table 3"`` / ``"卓 3"`` / ``"桌 3"``;
    any other label (``"Room A"``) is printed as given."""
    return numbered("table", table, lang) if isinstance(table, int) or str(table).isdigit() else str(table)


def group_table(group: int, table: int, lang: str) -> str:
    """``(2, 6)`` → ``"Group 2 · Table 6"`` / ``"グループ 2 · 卓 6"`` / ``"组 2 · 桌 6"``: a table that
    plays a set first, among the groups sharing its walls."""
    return f"{numbered('group', group, lang)} · {numbered('table', table, lang)}"


def seat_name(seat: str, lang: str) -> str:
    """``"E"`` → ``"East"`` / ``"東家"`` / ``"东家"``; an unknown seat letter is returned as is."""
    return SEAT_NAMES[lang].get(seat, seat)


def seat_label(seat: str, lang: str) -> str:
    """``"E"`` → ``"E"`` / ``"東"`` / ``"东"``; an unknown seat letter is returned as is."""
    return SEAT_LABELS[lang].get(seat, seat)


RESERVE_HEADINGS = {
    "en": "RESERVE WALL {reserve} for set {set}",
    "ja": "予備牌山 {reserve} — セット {set} の代替",
    "zh": "备用牌墙 {reserve} — 替换牌组 {set}",
}
"""The heading of a reserve wall's set-up sheet, stickers and label (docs/walls.md, "Reserve
walls"): which reserve, and which set it replaces."""


def reserve_heading(reserve: str, set_code: str, lang: str) -> str:
    """``("R1", "1-07", "en")`` → ``"RESERVE WALL R1 for set 1-07"`` / ``"予備牌山 R1 — セット 1-07 の代替"``
    / ``"备用牌墙 R1 — 替换牌组 1-07"``: printed wherever a reserve wall's papers have room, so
    nobody lays it, or scores it, as the set itself."""
    return RESERVE_HEADINGS[lang].format(reserve=reserve, set=set_code)
