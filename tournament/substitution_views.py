"""The director's substitution page (docs/scoring.md, "Substitutions"): replace a seated player
after Prepare. Thin: the write is :func:`tournament.substitutions.substitute`."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.access import DIRECTOR, event_view
from tournament.i18n import seat_name
from tournament.models import Substitution
from tournament.substitutions import SubstitutionError, seated_now
from tournament.substitutions import substitute as make_substitution

director_page = event_view(roles=(DIRECTOR,), login=True,
                           denied=gettext_lazy("only the event's director substitutes players"))


@director_page
def substitute(request, event, number):
    """GET: the seated players of session ``number`` ("<name> — Table N, <seat>"), the form (player
    out, name of the player in, for good, reason) and the substitutions made. POST: make the
    substitution (a re-posted form makes it once) and come back here; an error is shown on the
    form with the values kept. 404 for a session not seated."""
    if not event.sessions.filter(number=number).exists():
        raise Http404(_("Session %(session)s is not seated yet.") % {"session": number})
    seated = [{"id": s["player"].pk, "label": _("%(name)s — Table %(table)s, %(seat)s") % {
        "name": s["player"].name, "table": s["table"].number, "seat": seat_name(s["seat"])}, "player": s["player"]}
        for s in seated_now(event, number)]
    values = {"player_out": "", "name": "", "reason": "", "for_good": False}
    errors: dict[str, str] = {}
    if request.method == "POST":
        values = {key: request.POST.get(key, "").strip() for key in ("player_out", "name", "reason")}
        values["for_good"] = bool(request.POST.get("for_good"))
        out = next((s["player"] for s in seated if str(s["id"]) == values["player_out"]), None)
        if out is None and values["player_out"].isdigit():
            out = event.players.filter(pk=int(values["player_out"])).first()  # a re-post after the substitution
        try:
            done = make_substitution(event, number, player_out=out, name=values["name"], for_good=values["for_good"],
                                     reason=values["reason"], actor=request.user.get_username())
        except SubstitutionError as exc:
            errors[exc.field] = exc.message
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(player_in)s replaces %(player_out)s at Table %(table)s from set %(set)s.") % {
                "player_in": done.player_in.name, "player_out": done.player_out.name, "table": done.table.number,
                "set": done.sets[0] if done.sets else "–"})
            return redirect("substitute", slug=event.slug, number=number)
    made = (Substitution.objects.filter(event=event, session_number=number)
            .select_related("table", "player_in", "player_out").order_by("id"))
    return render(request, "tournament/substitute.html", {
        "event": event, "session": number, "seated": seated, "values": values, "errors": errors,
        "substitutions": [{"sub": s, "seat_name": seat_name(s.seat), "sets": ", ".join(str(n) for n in s.sets)} for s in made],
        "team_event": event.method == event.Method.TEAM,
        "sessions": list(event.sessions.order_by("number").values_list("number", flat=True)),
    }, status=400 if errors else 200)
