"""The director's API tokens page (docs/security.md, "Threats and the tests that cover them", threat 2): the tokens of the accounts holding a role in the
event, a form to create one (for yourself or a scorer of the event; the key is shown once, on
the response to that POST, never stored) and a Revoke button per token.

Thin adapters over :mod:`tournament.api_tokens`, which decides who may create and revoke what;
a TokenError is shown with ``messages.error`` (or on the form) and nothing is stored.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament import api_tokens
from tournament.access import DIRECTOR, event_view

director_page = event_view(roles=(DIRECTOR,), login=True,
                           denied=gettext_lazy("only the event's director creates and revokes API tokens"))


@never_cache
@director_page
def api_token_list(request, event):
    """GET: the event's tokens (account, its roles here, prefix, created, expires, last used; a
    Revoke button where the director may) and the create form (account, days). POST: create the
    token and answer this page with its key shown once (not a redirect: the key is kept nowhere
    to show it again); an error is shown on the form (400), nothing stored."""
    values = {"user": request.user.get_username(), "days": str(settings.API_TOKEN_DAYS)}
    errors: dict[str, str] = {}
    created = key = None
    if request.method == "POST":
        values = {name: request.POST.get(name, "").strip() for name in ("user", "days")}
        try:
            created, key = api_tokens.create_token(event, actor=request.user, username=values["user"], days=values["days"],
                                                   form_id=request.POST.get("form_id", ""))
        except api_tokens.TokenError as exc:
            errors[exc.field] = exc.message
            messages.error(request, exc.message)
        else:
            if key is None:
                messages.info(request, _("This form was sent already: the token %(prefix)s… of %(user)s was created then, "
                                         "and its key shown that once. If it was not copied, revoke that token and create "
                                         "another.") % {"prefix": created.token_key, "user": created.user.get_username()})
    return render(request, "tournament/api_tokens.html", {
        "event": event, "rows": api_tokens.event_tokens(event, request.user),
        "holders": api_tokens.token_holders(event, request.user), "values": values, "errors": errors,
        "created": created, "key": key, "max_days": api_tokens.MAX_DAYS, "form_id": api_tokens.new_form_id(),
    }, status=400 if errors else 200)


@require_POST
@director_page
def api_token_revoke(request, event, token_id):
    """Revoke one token (POST) and come back to the list; revoking it again changes nothing."""
    try:
        token = api_tokens.revoke_token(event, token_id, actor=request.user)
    except api_tokens.TokenError as exc:
        messages.error(request, exc.message)
    else:
        if token is None:
            messages.info(request, _("That token is already revoked or expired."))
        else:
            messages.success(request, _("Revoked the token %(prefix)s… of %(user)s.") % {
                "prefix": token.token_key, "user": token.user.get_username()})
    return redirect("api-tokens", slug=event.slug)
