"""The venues of an event played in several clubs (docs/director-guide.md, "An event in several
clubs"; docs/security.md, "Venues"): adding a venue, its schedule per session, and the accounts
of its director and staff.

Every venue plays the event's committed walls; its entrants (the roster's "venue" column) are
grouped among themselves (:func:`tournament.seating.seat_session`), and a set is public only once
every venue has played it (:mod:`scoring.visibility`: the release rule counts every table of the
session, whichever club it stands in).

Each public write is one transaction, audited (:meth:`tournament.models.Event.log`) and safe to
repeat. Errors are :class:`tournament.seating.SetupError` naming the input.
"""

from __future__ import annotations

import datetime
import re

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import Event, Venue, VenueRole, VenueSession
from tournament.roles import checked_username, find_account, new_account, set_password_path
from tournament.seating import SetupError

_CODE = re.compile(r"^[a-z0-9][a-z0-9-]{0,19}$")
_COUNTRY = re.compile(r"^([A-Z]{3})?$")


@transaction.atomic
def add_venue(event: Event, *, name: str, code: str, country: str = "", offline: bool = False, actor: object) -> Venue:
    """Add a venue to ``event``, numbered after the last. ``code``: lower-case letters, digits and
    hyphens, 20 at most (the roster's "venue" column names it); ``country``: ISO 3166 alpha-3 or
    blank. Repeating the call with the same code changes nothing and returns the stored venue.

    Raises SetupError ("name", "code", "country") for bad input, and ("venue") once session 1 is
    seated: the groups of every session are fixed then."""
    name, code, country = (name or "").strip(), (code or "").strip().lower(), (country or "").strip().upper()
    stored = event.venues.filter(code=code).first()
    if stored is not None:
        return stored
    if not name or len(name) > 100:
        raise SetupError("name", _("give the venue a name (100 characters at most)"))
    if not _CODE.match(code):
        raise SetupError("code", _("give a code of lower-case letters, digits and hyphens (20 at most), e.g. osaka"))
    if not _COUNTRY.match(country):
        raise SetupError("country", _("give the country as three capital letters (ISO 3166), e.g. JPN, or leave it blank"))
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one numbering at a time
    if event.sessions.exists():
        raise SetupError("venue", _("session 1 is seated already: venues are added before the first session is prepared"))
    number = max(event.venues.values_list("number", flat=True), default=0) + 1
    venue = Venue.objects.create(event=event, number=number, code=code, name=name, country=country, offline=offline)
    event.log("venue-added", actor, venue=code, name=name, offline=offline)
    return venue


@transaction.atomic
def set_schedule(venue: Venue, session_number: int, starts_at: datetime.datetime, ends_at: datetime.datetime, *,
                 actor: object) -> VenueSession:
    """Set when ``venue`` plays session ``session_number`` (aware datetimes). Raises SetupError
    ("session") for a session the event does not plan, ("ends_at") for an end not after the start."""
    event = venue.event
    if not 1 <= session_number <= event.sessions_planned:
        raise SetupError("session", _("session must be 1 to %(last)s") % {"last": event.sessions_planned})
    if ends_at <= starts_at:
        raise SetupError("ends_at", _("the session must end after it starts"))
    row, _created = VenueSession.objects.update_or_create(
        venue=venue, session_number=session_number, defaults={"starts_at": starts_at, "ends_at": ends_at})
    event.log("venue-schedule", actor, venue=venue.code, session=session_number,
              starts=starts_at.isoformat(), ends=ends_at.isoformat())
    return row


@transaction.atomic
@transaction.atomic
def add_venue_account(venue: Venue, *, username: str, role: str, actor: object) -> str:
    """Create the account ``username`` holding ``role`` (:class:`~tournament.models.VenueRole`:
    director or staff) at ``venue``, without a password; returns the one-time set-password path
    to hand to its owner (:func:`tournament.roles.set_password_path`). A venue account is new:
    an existing name is refused (field "username"), so no one's account is tied to a club without
    their consent (docs/security.md, "Venues"). Raises SetupError ("username", "role")."""
    username = checked_username(username)
    if role not in VenueRole.Role.values:
        raise SetupError("role", _("choose venue director or venue staff"))
    if find_account(username) is not None:
        raise SetupError("username", _("%(user)s is taken: a venue account is a new account, choose another name")
                         % {"user": username})
    user = new_account(username)
    VenueRole.objects.create(venue=venue, user=user, role=role)
    venue.event.log("venue-role-granted", actor, venue=venue.code, user=username, role=role)
    return set_password_path(user)

