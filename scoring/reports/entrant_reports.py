"""Per-player standings and the team and player pages.

The per-player comparison (each player against the same seat of the same set, the individual method of
docs/rules.md, "Duplicate MCR: individual event", converted with the event's current table) comes from
:func:`scoring.comparisons.converted_scores`, the path every stored converted score takes too.
``public`` (the default): only released sets count (:mod:`scoring.visibility`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from scoring.reports.analysis import against_par, par_words
from scoring.comparisons import converted_scores
from scoring.models import ConversionTable
from scoring.reports.standing_rows import (
    TALLIES_LOCK,
    active_adjustments,
    cached_score_state,
    adjustments_in,
    cached_standings,
    kept_tally,
    ranking_rules,
    released,
    set_scores,
)
from scoring.reports.scopes import set_scopes
from scoring.standings import ConvertedScore, RankingRules, StandingRow, standings
from tournament.cache import Kept, cached, cached_parts, content_version
from tournament.models import Event, Player, Team


KEPT_SETS = 1024


#: the per-seat rows of each set this process computed or read, ``{(event uid, pk, session,
#: set_no, token): (rows, {player pk: [rows]})}`` (token: what they depend on: the set's score
#: state, the conversion table, the datum method and comparison): after a release only the
#: released set is computed (:func:`~scoring.reports.scopes.set_scopes`), by one process (the
#: others read it from the cache, once), and nothing is unpickled after that
_SETS: Kept[tuple[list[dict], dict[int, list[dict]]]] = Kept(KEPT_SETS)
#: :func:`_scored_sets` of an event at a version, for every team and player page built after it
_SCORED: Kept[list] = Kept(8)


def _set_seat_rows(event: Event, session_number: int, set_no: int, token: tuple,
                   table) -> tuple[list[dict], dict[int, list[dict]]]:
    """``(rows, {player pk: their rows})``: the per-seat comparison rows of one set's complete
    comparisons (released or not) by table and seat; ``token``: what they depend on,
    ``(conversion table pk, datum method, comparison, the set's score rows, its last score row
    id)`` (:func:`~scoring.reports.standing_rows.score_state`). From this process's memory when
    ``token`` is unchanged, else from the cache under the token (:func:`tournament.cache.cached`'s
    ``stamp``: one process computes a released set, the others read it), else computed (four
    queries: :func:`~scoring.reports.scopes.set_scopes`)."""
    key = (event.uid, event.pk, session_number, set_no, token)
    found = _SETS.get(key)
    if found is None:
        found = cached(event, f"set-seats:{session_number}:{set_no}", lambda: _seat_rows_now(event, session_number, set_no, table),
                       stamp=".".join(map(str, token)))
        _SETS.put(key, found)
    return found


def _seat_rows_now(event: Event, session_number: int, set_no: int, table) -> tuple[list[dict], dict[int, list[dict]]]:
    out = []
    for (session, set_no_, group), rows in set_scopes(event, session_number, set_no).items():
        at = {r.player: r for r in rows}
        for score in converted_scores(rows, table, event.datum_method, by_team=False):
            row = at[score.key]
            out.append({"session": session, "set_no": set_no_, "group": group, "seat": score.seat,
                        "table": row.table, "player": score.key, "team": row.team,
                        "score_change": score.score_change, "datum": score.converted.datum,
                        "difference": score.converted.difference, "points": score.converted.points})
    out.sort(key=lambda r: (r["table"], r["seat"]))
    by_player: dict[int, list[dict]] = defaultdict(list)
    for r in out:
        by_player[r["player"]].append(r)
    return out, dict(by_player)


def _scored_sets(event: Event, public: bool) -> list[tuple[tuple[int, int], list[dict], dict[int, list[dict]]]]:
    """``[((session, set_no), rows, {player pk: rows})]`` of every set with a complete comparison
    (released sets only if ``public``), in play order: :func:`_set_seat_rows` of each, so after a
    release only that set is computed. Reads the score state (one query), the current
    conversion table and (``public``) the released sets (cached under the version); kept per
    process at the version (``public``: the public version), so every page built at it reuses it."""
    key = (event.uid, event.pk, public, content_version(event, public=public))
    found = _SCORED.get(key)
    if found is None:
        found = _scored_sets_now(event, public)
        _SCORED.put(key, found)
    return found


def _scored_sets_now(event: Event, public: bool) -> list[tuple[tuple[int, int], list[dict], dict[int, list[dict]]]]:
    table_row = ConversionTable.objects.current(event)
    table = table_row.as_table()
    state = cached_score_state(event, public=public)
    finished = released(event, public)
    out = []
    for key in sorted(state):
        if finished is not None and key not in finished:
            continue
        rows, by_player = _set_seat_rows(event, key[0], key[1], (table_row.pk, event.datum_method, event.comparison,
                                                                 *state[key]), table)
        if rows:
            out.append((key, rows, by_player))
    return out


def _seat_results(event: Event, public: bool, player: int | None = None) -> list[dict]:
    """Every player's per-seat comparison on every complete comparison (released sets only if
    ``public``): ``[{"session", "set_no", "group", "seat", "table", "player", "team",
    "score_change", "datum", "difference", "points"}]`` by session, set, table and seat, converted
    with the event's current conversion table; ``player`` (a pk): that player's rows only (read
    from the kept sets, not the event's rows). The whole list is cached once per content
    version; computing it after a change reads the score state (one query) and computes again
    only the sets whose state changed (:func:`_scored_sets`)."""
    if player is not None:
        return [r for _key, _rows, by_player in _scored_sets(event, public) for r in by_player.get(player, ())]
    return cached(event, f"seats:{int(public)}", lambda: [r for _key, rows, _p in _scored_sets(event, public) for r in rows],
                  public=public)


def player_standings(event: Event, *, public: bool = True, order: str = "points", team_number: int | None = None,
                     player: int | None = None) -> list[dict]:
    """Per-player standings: every player's score-change total and sets played, and as extra
    information their comparison with the same seat of the same set (the individual method of
    docs/rules.md, "Duplicate MCR: individual event" applied inside a team event, converted with the event's current table).

    Rows ``{"rank", "tied", "player", "number", "name", "team", "team_number", "points",
    "score_total", "sets_played", "positive_sets", "difference_total", "substitute",
    "sit_out_sets", "sit_out_points", "adjustment_points", "adjustment_score"}``; ``rank``
    follows the event's tie-breaks on the seat comparison under the event's entrant policy
    (:func:`~scoring.reports.standing_rows.ranking_rules`): substitute players (of a substitute team,
    or substitutes of an individual event) are listed after the ranked players with rank None;
    a player who sat out (in a team event: whose team sat out) is credited as the policy says,
    ``points`` including ``sit_out_points``. ``order``: ``"points"`` (default) or ``"score"``
    (score-change total first, then points; substitutes still after the ranked players).
    ``public``: only sets finished everywhere. Players with no set yet are listed last,
    unranked (substitutes with no set are left out). ``team_number``: only that team's rows;
    ``player`` (a pk): only that player's row (a list of at most one). The whole event is ranked
    once per content version and cached whole and per team and player, so one team's page reads
    its own four rows. Raises ValueError for an unknown ``order``.
    """
    if order not in ("points", "score"):
        raise ValueError(f"unknown order {order!r}: use points or score")
    part = order if team_number is None and player is None else (
        f"team:{team_number}" if player is None else f"player:{player}")
    return cached_parts(event, f"players:{int(public)}", part, lambda: _player_standings_parts(event, public), [],
                        public=public)


def _player_standings_parts(event: Event, public: bool) -> dict[str, list[dict]]:
    """The parts of :func:`player_standings`: ``{"points": rows, "score": rows, "team:N": that
    team's rows in points order, "player:PK": [that player's row]}``."""
    seat_rows = _seat_results(event, public)
    differences: dict[int, float] = defaultdict(float)
    by_set: dict[tuple[int, int], list[tuple]] = defaultdict(list)
    for r in seat_rows:
        differences[r["player"]] += r["difference"]
        by_set[(r["session"], r["set_no"])].append((r["player"], r["difference"], r["datum"], r["points"], r["score_change"]))
    players = {p.pk: p for p in Player.objects.filter(event=event).select_related("team").order_by("number")}
    rules = _player_rules(event, players, list(by_set))

    def results_of(changed: set) -> dict:
        return {key: {player: (ConvertedScore(difference, datum, points), change)
                      for player, difference, datum, points, change in by_set[key]} for key in changed if key in by_set}

    # ranked as standings() ranks them, by a tally this process keeps: a released set replaces
    # that set's rows, not the event's (the state of a set is its rows)
    with TALLIES_LOCK:
        tally = kept_tally(f"{event.uid}:{event.pk}:players:{int(public)}", {k: tuple(v) for k, v in by_set.items()},
                           results_of)
        ranked = tally.rows(rules)

    def line(row: StandingRow, substitute: bool) -> dict:
        player = players[row.key]
        return {**row.figures(), "player": player.pk, "number": player.number, "name": player.name,
                "team": player.team.name if player.team else "", "team_number": player.team.number if player.team else None,
                "difference_total": differences.get(row.key, 0.0), "substitute": substitute}

    out = [line(row, players[row.key].substitute) for row in ranked]
    by_score = sorted(out, key=lambda r: (r["substitute"], -r["score_total"], -r["points"], r["number"]))
    seen = {r["player"] for r in out}
    unscored = [line(StandingRow.unscored(p.pk), False) for p in players.values() if p.pk not in seen and not p.substitute]
    out += unscored
    by_score += unscored
    parts: dict[str, list[dict]] = {"points": out, "score": by_score}
    for p in players.values():
        parts[f"player:{p.pk}"] = []
        if p.team:
            parts[f"team:{p.team.number}"] = []
    for r in out:
        parts[f"player:{r['player']}"] = [r]
        if r["team_number"] is not None:
            parts[f"team:{r['team_number']}"].append(r)
    return parts


def _player_rules(event: Event, players: dict[int, Player], scored_sets: list[tuple[int, int]], *,
                  every: bool = True) -> RankingRules:
    """The ranking rules of the per-player standings: the event's entrant policy
    (:func:`~scoring.reports.standing_rows.ranking_rules`) carried over to players; in a team event a
    team's sit-out is each of its members'. ``players``: ``{pk: Player}`` by number (team
    loaded); ``every`` False: ``players`` are some of the event's (a team's page), the rules
    restricted to them (the event's entrants read by number: one query). The event's tie-breaks apply; an individual event's adjustments count as in its
    standings (a team's adjustment is the team's, not its members')."""
    substitutes = [pk for pk, p in players.items() if p.substitute]
    if event.method == Event.Method.INDIVIDUAL:
        keys = list(players) if every else list(Player.objects.filter(event=event).order_by("number")
                                                .values_list("pk", flat=True))
        rules = ranking_rules(event, keys, substitutes, scored_sets,
                              adjustments=adjustments_in(active_adjustments(event), None))
        if every:
            return rules
        return replace(rules, sat_out={k: n for k, n in rules.sat_out.items() if k in players},
                       adjustments={k: a for k, a in rules.adjustments.items() if k in players})
    if every:
        team_keys = [pk for _, pk in sorted({p.team.number: p.team_id for p in players.values() if p.team}.items())]
    else:
        team_keys = list(Team.objects.filter(event=event, players__isnull=False).order_by("number")
                         .values_list("pk", flat=True).distinct())
    team_rules = ranking_rules(event, team_keys, (), scored_sets)
    sat_out = {pk: team_rules.sat_out[p.team_id] for pk, p in players.items() if p.team_id in team_rules.sat_out}
    return RankingRules(unranked=frozenset(substitutes), sat_out=sat_out, sit_out_average=team_rules.sit_out_average,
                        tie_breaks=team_rules.tie_breaks)


def _member_rows(event: Event, public: bool, members: list[Player]) -> list[dict]:
    """The rows :func:`player_standings` gives ``members`` (a team's players, or one player, by
    number, team loaded), in the same order among themselves (the ranked, then substitutes, then
    those who have played nothing yet, then those with no set; substitutes with no set left
    out), with the same figures, but without the event-wide ``rank`` and ``tied`` (which need
    every player ranked): computed from the members' own seat rows in the kept sets
    (:func:`_scored_sets`), so a team's or player's page costs its own rows, not the event's.
    The ranking rules are the event's (:func:`_player_rules`) restricted to the members."""
    sets = _scored_sets(event, public)
    players = {p.pk: p for p in members}
    per_set, differences = [], defaultdict(float)
    for key, _rows, by_player in sets:
        for pk in players:
            for r in by_player.get(pk, ()):
                differences[pk] += r["difference"]
                per_set.append((pk, key, ConvertedScore(r["difference"], r["datum"], r["points"]), r["score_change"]))
    rules = _player_rules(event, players, [key for key, _rows, _p in sets], every=False)
    ranked = standings(per_set, rules)

    def line(row: StandingRow, substitute: bool) -> dict:
        player = players[row.key]
        figures = {k: v for k, v in row.figures().items() if k not in ("rank", "tied")}
        return {**figures, "player": player.pk, "number": player.number, "name": player.name,
                "team": player.team.name if player.team else "", "team_number": player.team.number if player.team else None,
                "difference_total": differences.get(row.key, 0.0), "substitute": substitute}

    out = [line(row, players[row.key].substitute) for row in ranked]
    seen = {r["player"] for r in out}
    return out + [line(StandingRow.unscored(p.pk), False) for p in players.values() if p.pk not in seen and not p.substitute]


def team_report(event: Event, team: Team, *, public: bool = True) -> dict:
    """A team's page: its standings row, its members' totals and seat comparisons (as
    :func:`player_standings`) and its set-by-set results ``[{"session", "set_no", "group",
    "score_change", "datum", "difference", "points", "running", "table_version"}]`` (running =
    points so far). ``public``: only sets finished everywhere. Reads the team's own rows (its
    members' cached part, its SetScore rows), not the event's."""
    row = next((r for r in cached_standings(event, public=public) if r["key"] == team.pk), None)
    members = _member_rows(event, public, list(team.players.select_related("team").order_by("number")))
    sets = _with_running(
        {"session": s["session_number"], "set_no": s["set_no"], "group": s["group__number"],
         "score_change": s["score_change"], "datum": s["datum"], "difference": s["difference"], "points": s["points"],
         "table_version": f"{s['conversion_table__name']} v{s['conversion_table__version']}"}
        for s in set_scores(event, public, team_id=team.pk)
    )
    return {"standing": row, "members": members, "sets": sets}


def player_report(event: Event, player: Player, *, public: bool = True) -> dict:
    """A player's page: their row of :func:`player_standings`, their standings row in an
    individual event, and their set-by-set results against the same seat ``[{"session",
    "set_no", "group", "table", "seat", "score_change", "datum", "difference", "points",
    "running", "par"}]`` (``par``: the seat's solo par on the set, :func:`scoring.reports.analysis.against_par`),
    and ``par_words`` (:func:`scoring.reports.analysis.par_words`: what the page says about par).
    In an individual event the points are the stored converted scores; in a team event they are
    the per-player comparison (extra information). Reads the player's own cached rows."""
    row = next(iter(_member_rows(event, public, [player])), None)
    standing = None
    if event.method == Event.Method.INDIVIDUAL:
        standing = next((r for r in cached_standings(event, public=public) if r["key"] == player.pk), None)
    sets = against_par(event, _with_running(_seat_results(event, public, player=player.pk)), public=public)
    return {"row": row, "standing": standing, "sets": sets, "par_words": par_words(event)}


def _with_running(rows) -> list[dict]:
    """Each of ``rows`` (dicts with ``points``, in play order) with ``running``: the points so far."""
    running = 0
    out = []
    for r in rows:
        running += r["points"]
        out.append({**r, "running": running})
    return out
