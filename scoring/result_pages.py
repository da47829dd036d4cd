"""Result pages players can check for themselves: travellers with the hand record, per-player
standings, team and player pages with the running-total chart, standings as CSV and XLSX — all
public, no login — and the director's conversion table editor.

Thin adapters: the data comes from :mod:`scoring.reports`, the writes from
:mod:`scoring.conversion_admin`. Director and staff see sets still being played elsewhere;
everyone else sees a set once every table has played it (:mod:`scoring.reports`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import conversion_admin, reports
from scoring.conversion import ConversionTableError
from scoring import visibility
from tournament.models import Event, Player, Team
from tournament.permissions import is_director

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _event(slug: str) -> Event:
    return get_object_or_404(Event.objects.select_related("conversion_table"), slug=slug)


def _public(request, event: Event) -> bool:
    """Team, player and chart pages count released sets only, like the standings (they are
    projected too); the director and staff add ``?all=1``."""
    return visibility.standings_public(request, event)


def _session(request) -> int | None:
    value = request.GET.get("session", "")
    return int(value) if value.isdigit() else None


def travellers(request, slug):
    """Every set of every session, linking to its traveller; finished sets marked."""
    event = _event(slug)
    return render(request, "scoring/travellers.html", {"event": event, "sessions": reports.traveller_index(event)})


def traveller(request, slug, session, set_no):
    """One set's traveller (every table's result, the datum, each converted score) with the hand
    record beside it once the wall is public."""
    event = _event(slug)
    hands = event.get_ruleset().hands_per_session
    if not 1 <= set_no <= hands or not event.sessions.filter(number=session).exists():
        raise Http404(_("no such set in this event"))
    report = reports.traveller_report(event, session, set_no, visibility.viewer(request, event))
    return render(request, "scoring/traveller.html", {"event": event, "report": report, "hands": hands,
                                                      "team_method": event.method == Event.Method.TEAM})


def players(request, slug):
    """Per-player standings inside a team event (an individual event's standings are per player
    already: redirected there). ``?order=score`` sorts by score-change total."""
    event = _event(slug)
    if event.method != Event.Method.TEAM:
        return redirect("standings", slug=slug)
    order = "score" if request.GET.get("order") == "score" else "points"
    public = _public(request, event)
    return render(request, "scoring/players.html", {
        "event": event, "rows": reports.player_standings(event, public=public, order=order), "order": order,
        "public": public,
    })


def teams(request, slug):
    """The running-total chart of every team (individual events: the leading players) and the
    list of entrants to open "my team" / "my results"."""
    event = _event(slug)
    public = _public(request, event)
    team_method = event.method == Event.Method.TEAM
    return render(request, "scoring/team.html", {
        "event": event, "mode": "index", "team_method": team_method, "public": public,
        "chart": reports.event_chart(event, public=public),
        "entrants": event.teams.all() if team_method else event.players.all(),
    })


def team(request, slug, number):
    """One team's page: standing, members, set-by-set results, its line on the chart."""
    event = _event(slug)
    found = get_object_or_404(Team, event=event, number=number)
    public = _public(request, event)
    return render(request, "scoring/team.html", {
        "event": event, "mode": "team", "team_method": True, "team": found, "public": public,
        "report": reports.team_report(event, found, public=public),
        "chart": reports.event_chart(event, public=public, highlight=found.pk),
    })


def player(request, slug, number):
    """One player's results: each set against the same seat, and their standing."""
    event = _event(slug)
    found = get_object_or_404(Player.objects.select_related("team"), event=event, number=number)
    public = _public(request, event)
    team_method = event.method == Event.Method.TEAM
    return render(request, "scoring/team.html", {
        "event": event, "mode": "player", "team_method": team_method, "player": found, "public": public,
        "report": reports.player_report(event, found, public=public),
        "chart": None if team_method else reports.event_chart(event, public=public, highlight=found.pk),
    })


def entrant(request, slug, key):
    """The page of the team (team events) or player with primary key ``key``, as the standings
    rows name them."""
    event = _event(slug)
    if event.method == Event.Method.TEAM:
        return redirect("team", slug=slug, number=get_object_or_404(Team, event=event, pk=key).number)
    return redirect("player-results", slug=slug, number=get_object_or_404(Player, event=event, pk=key).number)


def my_results(request, slug):
    """A logged-in player linked to an entrant goes to their team's (or their own) page; anyone
    else chooses from the list."""
    event = _event(slug)
    mine = Player.objects.filter(event=event, user=request.user).select_related("team").first() \
        if request.user.is_authenticated else None
    if mine is None:
        return redirect("teams", slug=slug)
    if event.method == Event.Method.TEAM and mine.team:
        return redirect("team", slug=slug, number=mine.team.number)
    return redirect("player-results", slug=slug, number=mine.number)


def standings_csv(request, slug):
    """The standings (``?session=N`` for one session) as CSV."""
    event = _event(slug)
    session = _session(request)
    response = HttpResponse(reports.standings_csv(event, session, public=visibility.standings_public(request, event)),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings{f"-session{session}" if session else ""}.csv"'
    return response


def standings_xlsx(request, slug):
    """The standings (``?session=N`` for one session) as an XLSX workbook."""
    event = _event(slug)
    session = _session(request)
    response = HttpResponse(reports.standings_xlsx(event, session, public=visibility.standings_public(request, event)),
                            content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-standings{f"-session{session}" if session else ""}.xlsx"'
    return response


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


def _director_event(request, slug) -> Event:
    event = _event(slug)
    if not is_director(request.user, event):
        raise PermissionDenied(_("only the event's director edits the conversion table"))
    return event


def conversion(request, slug):
    """Director: view, edit and import the conversion table. Each save is a new version; stored
    converted scores keep theirs until "rescore everything"."""
    event = _director_event(request, slug)
    current = event.conversion_table
    initial = {"name": current.name, "csv_text": current.as_table().to_csv()} if current else {}
    form = ConversionForm(request.POST or None, request.FILES or None, initial=initial)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            saved = conversion_admin.save_table_csv(event, form.cleaned_data["csv_text"], name=form.cleaned_data["name"],
                                                    source=form.cleaned_data["source"])
        except ConversionTableError as exc:
            error = exc
        else:
            messages.success(request, _("Saved %(table)s. Stored scores keep their version until you rescore.")
                             % {"table": saved})
            return redirect("conversion", slug=slug)
    return render(request, "scoring/conversion.html", {
        "event": event, "form": form, "error": error, "current": current,
        "rows": current.as_table().rows() if current else [], "versions": conversion_admin.table_versions(event),
    }, status=400 if error or form.errors else 200)


@require_POST
def conversion_rescore(request, slug):
    """Director: rescore every set with the current conversion table version."""
    event = _director_event(request, slug)
    stored = conversion_admin.rescore_event(event)
    messages.success(request, _("Rescored with %(table)s: %(count)d converted scores.")
                     % {"table": event.conversion_table, "count": stored})
    return redirect("conversion", slug=slug)


def conversion_csv(request, slug):
    """A stored version of the event's conversion table as CSV (``?version=N``, optionally
    ``&code=C``; default the current one). Public: players check their converted scores with it."""
    event = _event(slug)
    table = event.conversion_table
    if table is None:
        raise Http404(_("this event has no conversion table"))
    version = request.GET.get("version", "")
    if version.isdigit():
        table = get_object_or_404(event.conversion_tables, code=request.GET.get("code") or table.code, version=int(version))
    response = HttpResponse(table.as_table().to_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{table.code}-v{table.version}.csv"'
    return response
