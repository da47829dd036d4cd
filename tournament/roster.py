"""Roster files as spreadsheets save them: decode the bytes, read the lines, flag doubtful names.
Pure core (no Django): :mod:`tournament.seating` imports the roster from the entries.

Spreadsheets save a CSV in the computer's encoding (UTF-8 with or without a byte-order mark;
Shift-JIS, i.e. cp932, from Japanese Excel) and with the list separator of its locale (comma,
semicolon in much of Europe, tab when "Text (tab-delimited)" is chosen). Header names are read
case-insensitively, in English or Japanese (docs/director-guide.md, "Roster").
"""

from __future__ import annotations

import base64
import codecs
import csv
import io
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

from tournament.errors import FieldError
from tournament.i18n import gettext as _


class RosterError(FieldError):
    """A roster that cannot be read: ``field`` is ``"roster"``, the message names the line and
    how to fix it."""


@dataclass(frozen=True)
class RosterEntry:
    """One roster line: ``team`` (blank in individual events) and ``player`` name; ``venue``, the
    code of the club the entrant plays at (blank: the event is played in one place) and
    ``country`` (ISO 3166 alpha-3, blank: none), both optional columns."""

    team: str
    player: str
    venue: str = ""
    country: str = ""


#: Header names accepted for each column (compared after strip and lower-case).
TEAM_HEADERS = frozenset({"team", "team name", "チーム", "チーム名", "队", "队伍", "隊", "隊伍"})
PLAYER_HEADERS = frozenset({"player", "player name", "name", "選手", "選手名", "氏名", "名前", "选手", "姓名"})
VENUE_HEADERS = frozenset({"venue", "club", "会場", "クラブ", "场地", "赛场", "俱乐部"})
COUNTRY_HEADERS = frozenset({"country", "国", "国名", "国家"})



def _fix() -> str:
    """How to save a roster that can be read, in the active language."""
    return _("save the file as CSV UTF-8 (in Excel: File > Save As > 'CSV UTF-8 (comma delimited)')")


#: The largest roster file read, in bytes (about 30,000 players): the file travels back in the
#: preview form while its encoding is confirmed (:func:`read_roster`).
ROSTER_MAX_BYTES = 1_000_000


def roster_encodings() -> list[tuple[str, str]]:
    """The encodings a director may choose for a roster file, ``(codec, label)`` in the active
    language: those spreadsheets save a CSV in, most common first. ``codec`` is the name
    :func:`read_roster` takes (Python's codec name)."""
    return [
        ("utf-8", _("UTF-8")),
        ("cp932", _("Shift-JIS (cp932, Japanese Windows)")),
        ("cp1252", _("Windows-1252 (Western European)")),
        ("cp1250", _("Windows-1250 (Central European)")),
        ("iso8859-1", _("ISO-8859-1 (Latin-1)")),
        ("iso8859-15", _("ISO-8859-15 (Latin-9)")),
        ("cp1251", _("Windows-1251 (Cyrillic)")),
        ("gb18030", _("GB18030 (Simplified Chinese)")),
        ("big5", _("Big5 (Traditional Chinese)")),
        ("euc_kr", _("EUC-KR (Korean)")),
    ]


def encoding_label(codec: str) -> str:
    """The label of ``codec`` in :func:`roster_encodings`, or the codec's own name for one the
    guess found outside the list (e.g. ``cp775``)."""
    return dict(roster_encodings()).get(_codec_name(codec), codec)


def _codec_name(codec: str) -> str:
    """``codec`` as the name of :func:`roster_encodings` (``ISO-8859-1`` → ``iso8859-1``,
    ``shift_jis``/``cp932`` kept apart), or the codec's normal name; "" for an unknown one."""
    try:
        name = codecs.lookup(codec).name
    except (LookupError, TypeError):
        return ""
    return {"utf-8-sig": "utf-8", "latin-1": "iso8859-1", "iso8859-1": "iso8859-1", "euc-kr": "euc_kr",
            "gb18030": "gb18030"}.get(name, name)


@dataclass(frozen=True)
class RosterReading:
    """A roster file's ``text`` as read in ``encoding`` (a codec of :func:`roster_encodings`,
    or the guess's own). ``guessed`` is True when the encoding is a guess the director must
    confirm before anything is stored: anything but valid UTF-8 or Japanese Shift-JIS (see
    :func:`read_roster`)."""

    text: str
    encoding: str
    guessed: bool


_KANA = re.compile("[\u3040-\u30ff]")
#: What a Western or Chinese file read as cp932 turns into: half-width katakana (its single bytes
#: 0xA1-0xDF are accented capitals in Windows-1252), the user-defined area (0xF0-0xF9 lead bytes,
#: accented small letters), C1 controls.
_NOT_JAPANESE = re.compile("[\uff61-\uff9f\ue000-\uf8ff\u0080-\u009f]")


def read_roster(data: bytes, encoding: str | None = None) -> RosterReading:
    """Read a roster file's ``data``.

    With ``encoding`` (a codec name, as chosen by the director): decoded strictly in it
    (``utf-8`` also drops a byte-order mark); ``guessed`` False.

    Without: UTF-8 with or without a byte-order mark is taken as certain. Shift-JIS (cp932,
    Japanese Excel's default) is taken as certain when it decodes strictly *and* holds kana
    (hiragana, katakana, ー・): a Western or Chinese file read as cp932 never yields kana (their
    bytes would need a 0x82/0x83 lead byte, the rare ‚ and ƒ of Windows-1252), so a Japanese
    roster is imported at once and nothing else slips through. Anything else is a guess
    (``guessed`` True): cp932 when it decodes strictly into nothing un-Japanese (half-width
    katakana, user-defined characters, C1 controls: what accented Latin letters become), else
    charset-normalizer's best guess. charset-normalizer reads a Windows-1252 file of Danish
    names as Windows-1250 ("Ærøskøbing" → "Ćrřskřbing"), hence the preview.

    Raises RosterError ("roster") when the bytes are empty, larger than
    :data:`ROSTER_MAX_BYTES`, hold NUL bytes (a spreadsheet's own format, such as .xlsx), do not
    decode in the ``encoding`` given (naming it) or match no encoding; the message says how to
    save the file."""
    if not data.strip():
        raise RosterError("roster", _("the roster file is empty: %(fix)s") % {"fix": _fix()})
    if len(data) > ROSTER_MAX_BYTES:
        raise RosterError("roster", _("the roster file is larger than %(size)s MB: is it the right file?")
                          % {"size": ROSTER_MAX_BYTES // 1_000_000})
    if b"\x00" in data:
        raise RosterError("roster", _("this is not a text file (an Excel workbook?): %(fix)s") % {"fix": _fix()})
    if encoding is not None:
        codec = _codec_name(encoding)
        if not codec:
            raise RosterError("roster", _("unknown encoding %(encoding)s: choose one from the list") % {"encoding": encoding})
        try:
            return RosterReading(data.decode("utf-8-sig" if codec == "utf-8" else codec), codec, False)
        except UnicodeDecodeError:
            raise RosterError("roster", _("the file cannot be read as %(encoding)s: choose another encoding")
                              % {"encoding": encoding_label(codec)}) from None
    try:
        return RosterReading(data.decode("utf-8-sig"), "utf-8", False)
    except UnicodeDecodeError:
        pass
    try:
        japanese = data.decode("cp932")
    except UnicodeDecodeError:
        japanese = None
    if japanese is not None and not _NOT_JAPANESE.search(japanese):
        return RosterReading(japanese, "cp932", not _KANA.search(japanese))
    best = from_bytes(data).best()
    if best is None:
        raise RosterError("roster", _("the roster's characters cannot be read: %(fix)s") % {"fix": _fix()})
    return RosterReading(str(best), _codec_name(best.encoding) or best.encoding, True)


@dataclass(frozen=True)
class RosterPreview:
    """The first ``entries`` of a roster as they would be stored, how many lines it holds
    (``count``), or the ``error`` that stops its import ("" when none) with the first
    ``lines`` of the text, as read."""

    entries: list[RosterEntry]
    count: int
    error: str
    lines: list[str]


def preview_roster(text: str, limit: int = 8) -> RosterPreview:
    """What :func:`parse_roster` makes of ``text``: its first ``limit`` entries and their
    number, or its error; with the first ``limit`` + 1 non-blank lines of the text."""
    lines = [line for line in text.lstrip("\ufeff").splitlines() if line.strip()][:limit + 1]
    try:
        entries = parse_roster(text)
    except RosterError as exc:
        return RosterPreview([], 0, exc.message, lines)
    return RosterPreview(entries[:limit], len(entries), "", lines)


@dataclass(frozen=True)
class EncodingCheck:
    """What a director sees of a roster file before confirming its encoding: ``encoding``
    (the codec read in: the guess, or the one chosen), its ``label``, whether it was a
    ``guess``, the ``preview`` of the names as they would be stored (None when the file does
    not decode in it), the ``error`` of that encoding ("" when none), the ``choices``
    (``(codec, label)``: :func:`roster_encodings`, plus the guess when it is not in the list)
    ``data``, the file as base64 text to keep in the form (:func:`unpack_roster`), and its
    ``text`` as read ("" after an error)."""

    encoding: str
    label: str
    guess: bool
    preview: RosterPreview | None
    error: str
    choices: list[tuple[str, str]]
    data: str
    text: str


def pack_roster(data: bytes) -> str:
    """``data`` as base64 text, to keep a roster file in a form between its preview and its
    confirmation."""
    return base64.b64encode(data).decode("ascii")


def unpack_roster(text: str) -> bytes:
    """The file :func:`pack_roster` packed. Raises RosterError ("roster") when ``text`` is not
    such a file (tampered or cut): choose the file again."""
    try:
        data = base64.b64decode((text or "").encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        data = b""
    if not data or len(data) > ROSTER_MAX_BYTES:
        raise RosterError("roster", _("the roster file was not kept: choose the roster file again"))
    return data


def check_encoding(data: bytes, encoding: str | None = None) -> EncodingCheck:
    """``data`` read in ``encoding`` (None: as :func:`read_roster` guesses) for the director to
    confirm: the names previewed, or the error of that encoding. Raises RosterError only for a
    file no encoding can help (empty, too large, a workbook, unreadable)."""
    if encoding is None:
        reading, error = read_roster(data), ""
        codec, guess = reading.encoding, reading.guessed
    else:
        codec, guess = _codec_name(encoding) or encoding, False
        try:
            reading, error = read_roster(data, encoding), ""
        except RosterError as exc:
            if not _codec_name(encoding):
                raise
            reading, error = None, exc.message
    choices = roster_encodings()
    if codec not in dict(choices):
        choices.append((codec, codec))
    return EncodingCheck(codec, encoding_label(codec), guess, preview_roster(reading.text) if reading else None,
                         error, choices, pack_roster(data), reading.text if reading else "")


def _delimiter(text: str) -> str:
    """The separator of ``text``: the one of tab, semicolon and comma under which the header line
    splits into several cells with a known player column; else csv.Sniffer's guess among them
    (its guess of the quote character is not used: spreadsheets quote with ``"``); else comma."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    for delimiter in ("\t", ";", ","):
        cells = [c.strip().lower() for c in next(csv.reader([first], delimiter=delimiter), [])]
        if len(cells) > 1 and PLAYER_HEADERS & set(cells):
            return delimiter
    try:
        return csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
    except csv.Error:
        return ","


def parse_roster(text: str) -> list[RosterEntry]:
    """Read a roster: a header line naming a player column ("player", "name", 選手, 氏名,
    名前...) and, for team events, a team column ("team", チーム...), then one line per player.
    Optional columns: "venue" (the code of the club the entrant plays at, read in lower case) and
    "country" (read in upper case).
    Comma, semicolon or tab separated; blank lines skipped; names stripped.

    Returns entries in file order. Raises RosterError naming the line for a missing header,
    an empty player name or a player listed twice in one team."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise RosterError("roster", _("the roster is empty: the first line must be a header 'team,player'"))
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text), quotechar='"', doublequote=True)
    rows = [(line_no, row) for line_no, row in enumerate(reader, start=1) if any(cell.strip() for cell in row)]
    header_line, header = rows[0]
    names = [cell.strip().lower() for cell in header]
    player_col = next((i for i, name in enumerate(names) if name in PLAYER_HEADERS), None)
    team_col = next((i for i, name in enumerate(names) if name in TEAM_HEADERS), None)
    venue_col = next((i for i, name in enumerate(names) if name in VENUE_HEADERS), None)
    country_col = next((i for i, name in enumerate(names) if name in COUNTRY_HEADERS), None)
    if player_col is None:
        raise RosterError("roster", _("line %(line)s: the first line must be a header with a 'player' column (and 'team' for "
                                      "team events), found %(found)s") % {"line": header_line, "found": ", ".join(header)})
    entries, seen = [], set()
    for line_no, row in rows[1:]:
        player = row[player_col].strip() if player_col < len(row) else ""
        team, venue, country = (row[col].strip() if col is not None and col < len(row) else ""
                                for col in (team_col, venue_col, country_col))
        if not player:
            raise RosterError("roster", _("line %(line)s: the player name is empty") % {"line": line_no})
        if (team, player) in seen:
            if team:
                raise RosterError("roster", _("line %(line)s: %(player)s of %(team)s appears twice")
                                  % {"line": line_no, "player": repr(player), "team": team})
            raise RosterError("roster", _("line %(line)s: %(player)s of no team appears twice")
                              % {"line": line_no, "player": repr(player)})
        seen.add((team, player))
        entries.append(RosterEntry(team, player, venue.lower(), country.upper()))
    if not entries:
        raise RosterError("roster", _("no players: add one line per player under the header"))
    return entries


def roster_warnings(entries: list[RosterEntry]) -> list[str]:
    """Doubts a director should look at before the event, one sentence each: a player name in
    two or more teams (the same person entered twice, or two people who need telling apart).
    Empty when nothing is doubtful."""
    teams: dict[str, list[str]] = {}
    for entry in entries:
        if entry.team and entry.team not in teams.setdefault(entry.player, []):
            teams[entry.player].append(entry.team)
    return [_("%(player)s is listed in %(teams)s: the same person twice, or two people who need different names?")
            % {"player": player, "teams": " and ".join(names)}
            for player, names in teams.items() if len(names) > 1]
