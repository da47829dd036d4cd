"""Result pages players can check for themselves: travellers with the hand record, per-player
standings, team and player pages with the running-total chart, standings as CSV and XLSX — all
public, no login — and the director's conversion table editor.

Thin adapters: the data comes from :mod:`scoring.reports`, the writes from
:mod:`scoring.conversion_versions` and (fouled marks on the traveller) :mod:`scoring.actions.fouled`. Director and staff see sets still being played elsewhere;
everyone else sees a set once every table has played it (:mod:`scoring.reports`).
"""

from __future__ import annotations

import functools
import html
from decimal import ROUND_HALF_UP, Decimal

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import get_format, localize
from django.utils.safestring import SafeString, mark_safe
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import get_language, gettext_lazy
from django.views.decorators.http import require_POST

from scoring import conversion_versions, reports, table_access, visibility
from scoring.reports import analysis
from scoring.reports.luck import event_luck
from scoring.actions.describe import wall_flags
from scoring.actions.errors import ResultError
from scoring.actions.fouled import clear_fouled, mark_fouled
from scoring.conversion import ConversionTableError
from scoring.models import ConversionTable, FouledPlay, HandResult
from tournament.access import DIRECTOR, event_view
from tournament.models import Event, Player, Table, Team
from tournament import cache
from tournament.cache import Page
from tournament.query import int_param
from tournament.templatetags.seats import conversion_label, seat_name
from tournament.templatetags.set_codes import set_code
from tournament.table_plan import itineraries
from walls.printing import i18n as printing_words
from walls.printing.hand_records import render_hand_records

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# The event of every page here.
result_page = event_view()
director_page = event_view(roles=(DIRECTOR,),
                           denied=gettext_lazy("only the event's director edits the conversion table"))
fouled_page = event_view(roles=(DIRECTOR,), denied=gettext_lazy("only the event's director marks a set fouled"))


def _public(request, event: Event) -> bool:
    """Team, player and chart pages count released sets only, like the standings (they are
    projected too); the director and staff add ``?all=1``."""
    return table_access.standings_public(request, event)


def _session(request, event: Event) -> int | None:
    """``?session=N`` (:func:`tournament.query.int_param`: 400 unless a whole number from 1 to
    the event's sessions)."""
    return int_param(request, "session", maximum=event.sessions_planned)


@result_page
def travellers(request, event):
    """Every set of every session, linking to its traveller; finished sets marked."""
    return render(request, "scoring/travellers.html", {"event": event, "sessions": reports.traveller_index(event)})


@result_page
def luck(request, event):
    """Luck measured per session (docs/scoring.md, "Luck measured"): raw against field variance
    with its bootstrap interval, and about how many sets separate two players. Public and the
    same for everyone: it reads released sets only (:func:`scoring.reports.luck.event_luck`)."""
    def percent(value):
        return None if value is None else 100 * value

    sessions = [{"figures": f, "removed": percent(f.luck_removed),
                 "removed_low": percent(f.removed_interval[0]) if f.removed_interval else None,
                 "removed_high": percent(f.removed_interval[1]) if f.removed_interval else None} for f in event_luck(event)]
    return render(request, "scoring/luck.html", {"event": event, "sessions": sessions})


TRAVELLER = Page("traveller", tables=True)
PLAYERS = Page("players")
TEAMS, TEAM, PLAYER = Page("teams"), Page("team"), Page("player")
STANDINGS_CSV, STANDINGS_XLSX = Page("standings.csv", html=False), Page("standings.xlsx", html=False)
HAND_RECORDS = Page("hand-records.pdf", html=False)
FEDERATION_CSV = Page("federation.csv", html=False)


@result_page
def traveller(request, event, session, set_no):
    """One set's traveller (every table's result, the datum, each converted score) with the hand
    record beside it once the wall is public. Its body is cached per version and viewer (public,
    the tables whose own entries the viewer sees, or director and staff; a visitor's page of a
    released set under that set's stamp), with an ETag; the director's (with its forms to mark a
    play fouled, and every entry of the set stored although it does not fit the wall:
    :func:`scoring.actions.describe.wall_flags`) is rendered afresh. The versions are read before
    the set's stamp (:func:`tournament.cache.reading`), so the ETag never names a version newer
    than the page it is sent with."""
    with cache.reading(event):
        return _traveller(request, event, session, set_no)


def _traveller(request, event, session, set_no):
    hands = event.get_ruleset().hands_per_session
    # What the public sees of a set changes with the public version and, before its release, with
    # the count of tables that have confirmed it: its page and ETag follow those two alone, never
    # the event-wide count of writes (which would show a watcher every entry, confirmation and
    # correction on sets still in play: docs/security.md, "Caches"). A released set's public page
    # is kept under its own stamp, so another set's release does not build it again. One query.
    state = visibility.traveller_state(event, session, set_no) if 1 <= set_no <= hands else None
    if state is None:
        raise Http404(_("no such set in this event"))
    done, stamp = state
    viewer = table_access.viewer(request, event)
    public = not viewer.secrets and not viewer.tables
    variant = TRAVELLER.variant(viewer, False, session, set_no, *([done] if public else []))
    stamp = stamp if public else None

    def context() -> dict:
        return {"event": event, "report": reports.traveller_report(event, session, set_no, viewer), "hands": hands,
                "team_method": event.method == Event.Method.TEAM, "can_mark_fouled": viewer.director,
                # entries stored although they do not fit the wall: the director's only (never in a cached body)
                "wall_flags": wall_flags(HandResult.objects.filter(event=event, session_number=session, set_no=set_no)
                                         .select_related("table")) if viewer.director else []}

    def build():
        if viewer.director:  # its forms carry the request's CSRF token
            content = mark_safe(render_to_string("scoring/_traveller_body.html", context(), request=request))  # noqa: S308
        else:
            content = TRAVELLER.body(event, variant, "scoring/_traveller_body.html", context, public=public, stamp=stamp)
        return render(request, "scoring/traveller.html", {
            "event": event, "body": content, "report": {"session": session, "set_no": set_no}})

    return TRAVELLER.respond(request, event, variant, build, conditional=not viewer.director, public=public, stamp=stamp)


@require_POST
@fouled_page
def traveller_fouled(request, event, session, set_no):
    """Director: mark one table's play of the set fouled (``action=mark``, ``table`` id,
    ``version``, ``reason``) or clear its mark (``action=clear``, ``confirm=yes``, optional
    ``reason``): :func:`scoring.actions.fouled.mark_fouled` / :func:`~scoring.actions.fouled.clear_fouled`,
    which rescore the set. Back to the traveller with a message."""
    back = redirect("traveller", slug=event.slug, session=session, set_no=set_no)
    table = Table.objects.filter(pk=request.POST.get("table") if str(request.POST.get("table", "")).isdigit() else None,
                                 group__session__event=event, group__session__number=session).first()
    if table is None:
        messages.error(request, _("Choose a table of session %(session)s.") % {"session": session})
        return back
    actor = request.user.get_username()
    reason = request.POST.get("reason", "")
    try:
        if request.POST.get("action") == "clear":
            if request.POST.get("confirm") != "yes":
                messages.error(request, _("Tick the box to clear the fouled mark of Table %(table)s.") % {"table": table.number})
                return back
            fouled = FouledPlay.objects.filter(table=table, set_no=set_no).first()
            if fouled is not None:
                clear_fouled(fouled, actor=actor, reason=reason)
            messages.success(request, _("Table %(table)s: the fouled mark is cleared and the set rescored.") % {"table": table.number})
        else:
            fouled = mark_fouled(event, table, set_no, version=request.POST.get("version") or 1, reason=reason, actor=actor)
            messages.success(request, _("Table %(table)s: marked as fouled version %(label)s and the set rescored.")
                             % {"table": table.number, "label": fouled.label})
    except ResultError as exc:
        messages.error(request, str(exc))
    return back


@result_page
def players(request, event):
    """Per-player standings inside a team event (an individual event's standings are per player
    already: redirected there). ``?order=score`` sorts by score-change total. Body cached per
    content version and scope, with an ETag."""
    if event.method != Event.Method.TEAM:
        return redirect("standings", slug=event.slug)
    order = "score" if request.GET.get("order") == "score" else "points"
    public = _public(request, event)
    variant = PLAYERS.variant(table_access.viewer(request, event), public, order)

    def context() -> dict:
        return {"event": event, "rows": reports.player_standings(event, public=public, order=order), "order": order,
                "public": public}

    return PLAYERS.respond(request, event, variant, lambda: render(request, "scoring/players.html", {
        "event": event, "body": PLAYERS.body(event, variant, "scoring/_players_body.html", context, public=public)}),
        public=public, query={"order": order} if order == "score" else None)


def _entrant_page(request, event, declared: Page, public: bool, args: tuple, page, context,
                  players=None) -> HttpResponse:
    """A team's, a player's or the index page (``scoring/team.html``, ``page()``: its title's
    values, called only when the page is built), ``declared`` with the view's ``args``: its body
    cached (``context()`` on a miss;
    ``public``: under the public version), the logged-in player's next seat
    (:func:`_my_next_seat` among ``players``, a callable; None: not shown) put in per request."""
    variant = declared.variant(table_access.viewer(request, event), public, *args)

    def build():
        content = declared.body(event, variant, "scoring/_team_body.html", context, public=public)
        card = ""
        if players is not None and request.user.is_authenticated:
            card = render_to_string("scoring/_next_seat.html", {
                "event": event, "next_seat": _my_next_seat(request, event, players())})
        return render(request, "scoring/team.html", {
            "event": event, "body": mark_safe(content.replace(NEXT_SEAT_MARK, card, 1)), **page()})  # noqa: S308

    return declared.respond(request, event, variant, build, public=public)


NEXT_SEAT_MARK = "<!--next-seat-->"
_CENT = Decimal("0.01")


def set_rows_html(sets: list[dict], mode: str, slug: str) -> SafeString:
    """The rows (``<tr>`` elements, one per set, each followed by a line break) of the "Set by
    set" table of a team's page (``mode`` ``"team"``, :func:`scoring.reports.team_report`'s
    ``sets``) or a player's (``"player"``, :func:`scoring.reports.player_report`'s, with par),
    every text escaped, in the page's language; ``slug``: the event's, for the travellers' links.
    Written out here rather than by a template loop: at 48 sets the loop took 8 ms of a player
    page's 11 (docs/performance.md, "The runs of the seventeenth session"), and every phone's
    page is built once after each release. The markup is what the loop wrote (tests/test_set_rows.py
    keeps the loop as the oracle). Raises ValueError for a session or set that is not a whole
    number (as ``{% url %}`` refused it)."""
    example = reverse("traveller", args=[slug, 0, 0])
    traveller = example.removesuffix("0/0/")
    if traveller == example:  # the travellers' address no longer ends <session>/<set>/: say so, never a wrong link
        raise ValueError(f"the traveller's address {example!r} does not end with its session and set")
    best, no_par = html.escape(_("best")), html.escape(_("No call-free win was possible"))
    plain_int = not settings.USE_THOUSAND_SEPARATOR  # then Django localizes a whole number as str() does

    def text(value) -> str:  # as {{ value }}: localized, escaped
        if type(value) is int and plain_int:
            return str(value)
        return html.escape(str(value if isinstance(value, str) else localize(value)))

    def signed(value) -> str:  # as |stringformat:"+d"
        try:
            return "%+d" % value
        except (TypeError, ValueError):
            return ""

    point = get_format("DECIMAL_SEPARATOR")

    def fixed(value) -> str:  # as |floatformat:2 (rounded half up from the shortest decimal, no "-0.00")
        if type(value) in (int, float) and plain_int and (not value or 1e-9 <= abs(value) < 1e15):  # else as Django does
            rounded = Decimal(str(value)).quantize(_CENT, ROUND_HALF_UP)
            return f"{rounded if rounded else abs(rounded):f}".replace(".", point)
        return html.escape(str(floatformat(value, 2)))

    rows = []
    for s in sets:
        code = html.escape(set_code(s["session"], s["set_no"]))
        head = f'<tr class="set-row"><td><a href="{traveller}{int(s["session"])}/{int(s["set_no"])}/">{code}</a></td>'
        if mode == "team":
            rows.append(
                f'{head}\n<td class="num"><strong>{signed(s["points"])}</strong></td><td class="num">{text(s["running"])}</td>'
                f'<td>{text(s["group"] or "–")}</td>\n<td class="num">{signed(s["score_change"])}</td>'
                f'<td class="num">{fixed(s["datum"])}</td><td class="num">{fixed(s["difference"])}</td>\n'
                f'<td><small>{html.escape(conversion_label(s["table_version"]))}</small></td></tr>\n')
            continue
        par = s.get("par")
        if par:
            shown = f'{signed(par["score"])} <small class="muted">D{text(par["draw"])}</small>'
            if par["label"]:
                shown += f'<br><small>{text(par["label"])}</small>'
            if par["best_score"] != par["score"]:
                shown += (f'<br><small class="best">{best} {signed(par["best_score"])} '
                          f'<span class="muted">D{text(par["best_draw"])}</span>'
                          + (f' · {text(par["best_label"])}' if par["best_label"] else "") + "</small>")
            versus = signed(par["versus"])
        else:
            shown = f'<span class="muted" title="{no_par}">–</span>'
            versus = "–"
        rows.append(
            f'{head}<td>{text(s["table"])}</td><td>{html.escape(seat_name(s["seat"]))}</td>\n'
            f'<td class="num">{signed(s["score_change"])}</td><td class="num">{fixed(s["datum"])}</td>'
            f'<td class="num">{fixed(s["difference"])}</td>\n<td class="num"><strong>{signed(s["points"])}</strong></td>'
            f'<td class="num">{text(s["running"])}</td>\n<td class="num par">{shown}</td>\n<td class="num">{versus}</td></tr>\n')
    return mark_safe("".join(rows))  # noqa: S308 - every text escaped above


@result_page
def teams(request, event):
    """The running-total chart of every team (individual events: the leading players) and the
    list of entrants to open "my team" / "my results". Body cached per version (the public
    version for the public scope) and scope, with an ETag."""
    public = _public(request, event)
    team_method = event.method == Event.Method.TEAM
    page = {"mode": "index", "team_method": team_method}

    def context() -> dict:
        return {"event": event, **page, "public": public, "chart": reports.event_chart(event, public=public),
                "entrants": list(event.teams.all() if team_method else event.players.all())}

    return _entrant_page(request, event, TEAMS, public, (), lambda: page, context)


@result_page
def team(request, event, number):
    """One team's page: standing, members, set-by-set results, its line on the chart. Body
    cached per version (the public version for the public scope), team number and scope, with an
    ETag; the logged-in member's next
    seat is added per request. The team is looked up only when the page is built (404 when the
    event has no such team)."""
    found = functools.cache(lambda: get_object_or_404(Team, event=event, number=number))  # looked up once, if at all
    public = _public(request, event)
    def page() -> dict:
        return {"mode": "team", "team_method": True, "team": found()}

    def context() -> dict:
        return {"event": event, **page(), "public": public,
                "report": (report := reports.team_report(event, found(), public=public)),
                "set_rows": set_rows_html(report["sets"], "team", event.slug),
                "chart": reports.event_chart(event, public=public, highlight=found().pk)}

    return _entrant_page(request, event, TEAM, public, (number,), page, context,
                         lambda: list(found().players.all()))


@result_page
def player(request, event, number):
    """One player's results: each set against the same seat, and their standing. Body cached per
    version (the public version for the public scope), player and scope, with an ETag; their next seat is added per request."""
    found = functools.cache(lambda: get_object_or_404(Player.objects.select_related("team"), event=event, number=number))
    public = _public(request, event)
    team_method = event.method == Event.Method.TEAM
    def page() -> dict:
        return {"mode": "player", "team_method": team_method, "player": found()}

    def context() -> dict:
        return {"event": event, **page(), "public": public,
                "report": (report := reports.player_report(event, found(), public=public)),
                "set_rows": set_rows_html(report["sets"], "player", event.slug),
                "chart": None if team_method else reports.event_chart(event, public=public, highlight=found().pk)}

    return _entrant_page(request, event, PLAYER, public, (number,), page, context,
                         lambda: [found()])


@result_page
def entrant(request, event, key):
    """The page of the team (team events) or player with primary key ``key``, as the standings
    rows name them."""
    if event.method == Event.Method.TEAM:
        return redirect("team", slug=event.slug, number=get_object_or_404(Team, event=event, pk=key).number)
    return redirect("player-results", slug=event.slug, number=get_object_or_404(Player, event=event, pk=key).number)


def _mine(request, event: Event) -> Player | None:
    """The player of ``event`` linked to the logged-in account, if any."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(event=event, user=request.user).select_related("team").first()


def next_seat(event: Event, player: Player) -> dict | None:
    """Where ``player`` sits next: the first of their seats in the seated sessions
    (:func:`tournament.table_plan.itineraries`, substitutions applied: a seat handed over to a
    replacement is skipped, a seat taken over counts from its first set) whose table lacks a
    confirmed result on some set of the session: ``{"session", "group", "table", "room", "seat",
    "from_set"}`` (``room`` "" without one, ``seat`` the wind letter, ``from_set`` 0 unless the
    player came in as a substitute); None when no such seat exists (not seated, or every seated
    session played)."""
    hands = event.get_ruleset().hands_per_session
    for entry in itineraries(event, [player.pk]).get(player.pk, []):
        if entry["replaced_by"]:
            continue
        played = (HandResult.objects.filter(event=event, session_number=entry["session"], table__number=entry["table"],
                                            status=HandResult.Status.CONFIRMED).values("set_no").distinct().count())
        if played < hands:
            return {key: entry[key] for key in ("session", "group", "table", "room", "seat", "from_set")}
    return None


def _my_next_seat(request, event: Event, players) -> dict | None:
    """On a team's or player's page: the logged-in player's next seat (:func:`next_seat`) when
    they are one of ``players`` (the page's player, or the team's members); else None, with
    ``{"none": True}`` when they are but have no seat to go to."""
    mine = _mine(request, event)
    if mine is None or mine.pk not in {p.pk for p in players}:
        return None
    return next_seat(event, mine) or {"none": True}


@result_page
def my_results(request, event):
    """A logged-in player linked to an entrant goes to their team's (or their own) page, which
    shows their next seat (:func:`next_seat`); anyone else chooses from the list."""
    mine = _mine(request, event)
    if mine is None:
        return redirect("teams", slug=event.slug)
    if event.method == Event.Method.TEAM and mine.team:
        return redirect("team", slug=event.slug, number=mine.team.number)
    return redirect("player-results", slug=event.slug, number=mine.number)


def _standings_file(request, event, declared: Page, content_type: str, build) -> HttpResponse:
    """The standings download ``name`` (``standings.csv`` or ``standings.xlsx``; ``?session=N``
    for one session): ``build(session, public)`` gives its bytes, cached per content version,
    scope and language, with an ETag; the public file rate-limited per address
    (:func:`tournament.cache.limited`)."""
    session = _session(request, event)
    public = table_access.standings_public(request, event)
    viewer = table_access.viewer(request, event)
    variant = declared.variant(viewer, public, session)
    name = declared.name

    def respond() -> HttpResponse:
        refused = cache.limited(request, name, viewer)
        if refused is not None:
            return refused
        body = cache.cached(event, f"download:{name}:{variant}", lambda: build(session, public), public=public)
        response = HttpResponse(body, content_type=content_type)
        stem, extension = name.rsplit(".", 1)
        suffix = f"-session{session}" if session else ""
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-{stem}{suffix}.{extension}"'
        return response

    return declared.respond(request, event, variant, respond, public=public)


@result_page
def hand_records(request, event, session):
    """The printed hand records of session ``session`` (PDF, one page per set: its wall, each
    seat's par and every table's score; docs/printing.md, "Hand records"), in the page's
    language: the sets released everywhere for the public, every set for the director and staff
    (:func:`scoring.reports.analysis.hand_record_pages`). Cached per content version, scope and
    language, with an ETag; the public file rate-limited per address. 404 while no set may be shown."""
    if not event.sessions.filter(number=session).exists():
        raise Http404(_("no such session in this event"))
    viewer = table_access.viewer(request, event)
    try:
        lang = printing_words.check_lang(get_language() or "en")
    except ValueError:  # a page language the sheets do not print in
        lang = "en"
    public = not viewer.secrets
    variant = HAND_RECORDS.variant(viewer, public, session, lang)
    name = HAND_RECORDS.name

    def respond() -> HttpResponse:
        refused = cache.limited(request, name, viewer)
        if refused is not None:
            return refused

        def build() -> bytes:  # b"": no set of the session may be shown yet
            pages = analysis.hand_record_pages(event, session, viewer, lang)
            return render_hand_records(pages, lang) if pages else b""

        body = cache.cached(event, f"download:{name}:{variant}", build, public=public)
        if not body:
            raise Http404(_("no set of this session is finished everywhere yet: its hand records appear once it is"))
        response = HttpResponse(body, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-hand-records-session{session}.pdf"'
        return response

    return HAND_RECORDS.respond(request, event, variant, respond, public=public)


@result_page
def standings_csv(request, event):
    """The standings (``?session=N`` for one session) as CSV (:func:`_standings_file`)."""
    return _standings_file(request, event, STANDINGS_CSV, "text/csv; charset=utf-8",
                           lambda session, public: reports.standings_csv(event, session, public=public).encode())


@result_page
def standings_xlsx(request, event):
    """The standings (``?session=N`` for one session) as an XLSX workbook (:func:`_standings_file`)."""
    return _standings_file(request, event, STANDINGS_XLSX, XLSX_TYPE,
                           lambda session, public: reports.standings_xlsx(event, session, public=public))


@result_page
def federation_csv(request, event):
    """The federation results file (CSV, one row per player: docs/scoring.md, "The federation
    results file"; :func:`scoring.reports.federation_csv`): public standings only, for every
    viewer, director included (it is for the federation). Cached per public version, with an
    ETag; rate-limited per address."""
    viewer = table_access.viewer(request, event)
    variant = FEDERATION_CSV.variant(viewer, True)
    name = FEDERATION_CSV.name

    def respond() -> HttpResponse:
        refused = cache.limited(request, name, viewer)
        if refused is not None:
            return refused
        body = cache.cached(event, f"download:{name}:{variant}", lambda: reports.federation_csv(event).encode(),
                            public=True)
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-federation.csv"'
        return response

    return FEDERATION_CSV.respond(request, event, variant, respond, public=True)


class ConversionForm(forms.Form):
    """A conversion table as CSV text or an uploaded CSV file (the file wins when both are given)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    csv_text = forms.CharField(label=gettext_lazy("Table (CSV: from,to,points)"), required=False,
                               widget=forms.Textarea(attrs={"rows": 18, "cols": 30, "spellcheck": "false"}))
    csv_file = forms.FileField(label=gettext_lazy("or import a CSV file"), required=False)
    source = forms.CharField(label=gettext_lazy("Source / reason for the change"), required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        data = super().clean()
        upload = data.get("csv_file")
        if upload:
            try:
                data["csv_text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("csv_file", _("the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8"))
        elif not (data.get("csv_text") or "").strip():
            self.add_error("csv_text", _("paste the table as CSV, or choose a CSV file"))
        return data


@director_page
def conversion(request, event):
    """Director: view, edit and import the conversion table. Each save is a new version, and every
    stored converted score is rescored with it at once (:func:`conversion_versions.save_table_version`)."""
    current = ConversionTable.objects.current(event)
    initial = {"name": current.name, "csv_text": current.as_table().to_csv()} if current else {}
    form = ConversionForm(request.POST or None, request.FILES or None, initial=initial)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            saved = conversion_versions.save_table_csv(event, form.cleaned_data["csv_text"], name=form.cleaned_data["name"],
                                                    source=form.cleaned_data["source"], actor=request.user.get_username())
        except ConversionTableError as exc:
            error = exc
        else:
            messages.success(request, _("Saved %(table)s and rescored every set with it.") % {"table": saved})
            return redirect("conversion", slug=event.slug)
    return render(request, "scoring/conversion.html", {
        "event": event, "form": form, "error": error, "current": current,
        "rows": current.as_table().rows() if current else [], "versions": conversion_versions.table_versions(event),
    }, status=400 if error or form.errors else 200)


@require_POST
@director_page
def conversion_rescore(request, event):
    """Director: rescore every set with the current conversion table version."""
    stored = conversion_versions.rescore_event(event)
    messages.success(request, _("Rescored with %(table)s: %(count)d converted scores.")
                     % {"table": ConversionTable.objects.current(event), "count": stored})
    return redirect("conversion", slug=event.slug)


@result_page
def conversion_csv(request, event):
    """A stored version of the event's conversion table as CSV (``?version=N``, optionally
    ``&code=C``; default the current one). Public: players check their converted scores with it;
    rate-limited per address (:func:`tournament.cache.limited`)."""
    refused = cache.limited(request, "conversion.csv", table_access.viewer(request, event))
    if refused is not None:
        return refused
    table = ConversionTable.objects.current(event)
    if table is None:
        raise Http404(_("this event has no conversion table"))
    version = int_param(request, "version")
    if version is not None:
        table = get_object_or_404(event.conversion_tables, code=request.GET.get("code") or table.code, version=version)
    response = HttpResponse(table.as_table().to_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{table.code}-v{table.version}.csv"'
    return response
