"""The few words printed on the PDFs, in English, Japanese and Chinese.

The printing layer renders outside Django (Celery workers, command line), so it carries its own
small vocabulary instead of gettext catalogues. Headings are printed in the event's language
with the English word beside it where staff of mixed languages read the same sheet.
"""

from __future__ import annotations

LANGS = ("en", "ja", "zh")

SEAT_NAMES = {
    "en": {"E": "East", "S": "South", "W": "West", "N": "North"},
    "ja": {"E": "東家", "S": "南家", "W": "西家", "N": "北家"},
    "zh": {"E": "东家", "S": "南家", "W": "西家", "N": "北家"},
}

WORDS = {
    "en": {
        "set": "Set", "session": "Session", "seat": "Seat", "table": "Table", "first": "First at",
        "stickers": "Wall stickers", "sheet": "sheet", "of": "of", "shared": "Shared",
        "setup": "Set-up sheet", "pick_list": "Pick list", "commitment": "Seed commitment",
        "hand": "Starting hand", "draw": "Draw pile", "live": "Live wall", "dead": "Dead wall",
        "end_rule": "Hand ends", "ruleset": "Rule set", "score_sheet": "Score sheet",
        "movement": "Movement", "slot": "Round", "next": "then to", "cont": "continued",
        "laid": "Laid", "checked": "Checked", "stuck": "Stickers on", "tile": "Tile",
        "copies": "copies", "where": "Set · seat · slot", "players": "Players",
        "scan_login": "Scan to enter results", "code": "Code", "winner": "Winner / fan",
        "initials": "Initials", "total": "Total", "hand_no": "Hand", "print_actual": "Print at 100 % (actual size)",
        "stickers_for": "stickers", "sign": "Players' signatures", "result_check": "Set code checked",
    },
    "ja": {
        "set": "セット", "session": "回戦", "seat": "席", "table": "卓", "first": "最初の卓",
        "stickers": "牌ヤマシール", "sheet": "枚目", "of": "/", "shared": "共通",
        "setup": "牌セット配置表", "pick_list": "ピックリスト", "commitment": "シードのハッシュ",
        "hand": "配牌", "draw": "ツモヤマ", "live": "山", "dead": "王牌",
        "end_rule": "終局条件", "ruleset": "ルール", "score_sheet": "記録用紙",
        "movement": "ムーブメント", "slot": "場", "next": "次の卓", "cont": "続き",
        "laid": "配置", "checked": "確認", "stuck": "シール", "tile": "牌",
        "copies": "枚", "where": "セット・席・位置", "players": "選手",
        "scan_login": "スキャンして結果入力", "code": "コード", "winner": "和了者 / 点",
        "initials": "署名", "total": "合計", "hand_no": "局", "print_actual": "実寸(100%)で印刷",
        "stickers_for": "シール", "sign": "選手署名", "result_check": "セット番号確認",
    },
    "zh": {
        "set": "牌组", "session": "轮次", "seat": "座位", "table": "桌", "first": "首桌",
        "stickers": "牌墙贴纸", "sheet": "页", "of": "/", "shared": "公共",
        "setup": "牌组摆放表", "pick_list": "拣牌清单", "commitment": "种子哈希",
        "hand": "起手牌", "draw": "摸牌墙", "live": "牌墙", "dead": "王牌区",
        "end_rule": "终局条件", "ruleset": "规则", "score_sheet": "记分表",
        "movement": "轮转表", "slot": "轮", "next": "下一桌", "cont": "续",
        "laid": "摆放", "checked": "核对", "stuck": "贴纸", "tile": "牌",
        "copies": "张", "where": "牌组・座位・位置", "players": "选手",
        "scan_login": "扫码录入成绩", "code": "代码", "winner": "和牌者 / 番",
        "initials": "签名", "total": "合计", "hand_no": "盘", "print_actual": "按实际尺寸(100%)打印",
        "stickers_for": "贴纸", "sign": "选手签名", "result_check": "牌组编号已核对",
    },
}


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is printable, else raise ValueError naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"lang: unknown language {lang!r}; use one of {', '.join(LANGS)}")
    return lang


def word(key: str, lang: str) -> str:
    """The word ``key`` in ``lang``."""
    return WORDS[lang][key]


def both(key: str, lang: str) -> str:
    """The word in ``lang`` followed by the English one (``"配牌 Starting hand"``), or English alone."""
    return WORDS["en"][key] if lang == "en" else f"{WORDS[lang][key]} {WORDS['en'][key]}"


def seat_name(seat: str, lang: str) -> str:
    """``"E"`` → ``"East"`` / ``"東家"`` / ``"东家"``; an unknown seat letter is returned as is."""
    return SEAT_NAMES[lang].get(seat, seat)


def seat_both(seat: str, lang: str) -> str:
    """``"E"`` → ``"East"`` or ``"東家 East"``."""
    en = seat_name(seat, "en")
    return en if lang == "en" else f"{seat_name(seat, lang)} {en}"
