"""Roster files as spreadsheets save them: decode the bytes, read the lines, flag doubtful names.
Pure core (no Django): :mod:`tournament.seating` imports the roster from the entries.

Spreadsheets save a CSV in the computer's encoding (UTF-8 with or without a byte-order mark;
Shift-JIS, i.e. cp932, from Japanese Excel) and with the list separator of its locale (comma,
semicolon in much of Europe, tab when "Text (tab-delimited)" is chosen). Header names are read
case-insensitively, in English or Japanese (docs/director-guide.md, "Roster").
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from charset_normalizer import from_bytes

from tournament.errors import FieldError
from tournament.i18n import gettext as _


class RosterError(FieldError):
    """A roster that cannot be read: ``field`` is ``"roster"``, the message names the line and
    how to fix it."""


@dataclass(frozen=True)
class RosterEntry:
    """One roster line: ``team`` (blank in individual events) and ``player`` name."""

    team: str
    player: str


#: Header names accepted for each column (compared after strip and lower-case).
TEAM_HEADERS = frozenset({"team", "team name", "チーム", "チーム名", "队", "队伍", "隊", "隊伍"})
PLAYER_HEADERS = frozenset({"player", "player name", "name", "選手", "選手名", "氏名", "名前", "选手", "姓名"})



def _fix() -> str:
    """How to save a roster that can be read, in the active language."""
    return _("save the file as CSV UTF-8 (in Excel: File > Save As > 'CSV UTF-8 (comma delimited)')")


def decode_roster(data: bytes) -> str:
    """The text of a roster file's ``data``: UTF-8 with a byte-order mark, UTF-8, cp932
    (Shift-JIS, Japanese Excel's default), then charset-normalizer's best guess, in that order.

    Raises RosterError when the bytes are empty, hold NUL bytes (a spreadsheet's own format,
    such as .xlsx) or match no encoding; the message says to save the file as CSV UTF-8."""
    if not data.strip():
        raise RosterError("roster", _("the roster file is empty: %(fix)s") % {"fix": _fix()})
    if b"\x00" in data:
        raise RosterError("roster", _("this is not a text file (an Excel workbook?): %(fix)s") % {"fix": _fix()})
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    best = from_bytes(data).best()
    if best is None:
        raise RosterError("roster", _("the roster's characters cannot be read: %(fix)s") % {"fix": _fix()})
    return str(best)


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
    if player_col is None:
        raise RosterError("roster", _("line %(line)s: the first line must be a header with a 'player' column (and 'team' for "
                                      "team events), found %(found)s") % {"line": header_line, "found": ", ".join(header)})
    entries, seen = [], set()
    for line_no, row in rows[1:]:
        player = row[player_col].strip() if player_col < len(row) else ""
        team = row[team_col].strip() if team_col is not None and team_col < len(row) else ""
        if not player:
            raise RosterError("roster", _("line %(line)s: the player name is empty") % {"line": line_no})
        if (team, player) in seen:
            if team:
                raise RosterError("roster", _("line %(line)s: %(player)s of %(team)s appears twice")
                                  % {"line": line_no, "player": repr(player), "team": team})
            raise RosterError("roster", _("line %(line)s: %(player)s of no team appears twice")
                              % {"line": line_no, "player": repr(player)})
        seen.add((team, player))
        entries.append(RosterEntry(team, player))
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
