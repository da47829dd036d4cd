"""API tokens (docs/security.md, "Threats and the tests that cover them", threat 2): created and revoked by an event's director, never readable afterwards.

The store is django-rest-knox's, with this project's model :class:`tournament.models.ApiToken`:
a token's key (64 random hex characters, 256 bits) is shown once, by :func:`create_token`, and
only its SHA-512 digest and its first 15 characters (the *prefix*, ``token_key``) are stored. A
request sends ``Authorization: Token <key>`` (:class:`TokenAuthentication`); a revoked or
expired key gets 401.

Who may do what, on the director's API tokens page of an event (``tournament.token_views``):

- **Create**: a director of the event (superusers count), for themselves or for an account that
  holds the scorer role in this event and no role in any other event, and is neither staff nor
  superuser. A token acts with all of its account's rights wherever they hold a role, so a
  director may not mint a key for an account that acts elsewhere: any staff user may create an
  event and direct it, and could otherwise hold a key of another event's director or scorer.
- **Revoke**: a director of the event may revoke (a) their own tokens, (b) the tokens created
  for this event (from this page), and (c) the tokens of accounts whose every role is in this
  event (no role elsewhere) and that are not superusers. Not the tokens of an account that also
  acts in another event, made elsewhere: that would let the director of one event cut off the
  directors and scorers of another. Those are revoked by their owner (from any event they
  direct) or a superuser (who may revoke every listed token).

Every create and revoke is one transaction and writes an :class:`~tournament.models.AuditEntry`
(``api-token-created``, ``api-token-revoked``: the account, the prefix, the expiry) that names the
token by its prefix only. Errors are :class:`TokenError` naming the input.
"""

from __future__ import annotations

import binascii
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from hmac import compare_digest

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
# knox's messages, as knox words them ("Invalid token."): translated by Django REST framework's
# catalogue, not this project's, so imported under a name makemessages does not collect
from django.utils.translation import gettext_lazy as knox_gettext
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from rest_framework import exceptions

from tournament.errors import FieldError
from tournament.models import ApiToken, Event, EventRole

MAX_DAYS = 365
"""The longest life a new token may be given, in days."""

LAST_USED_EVERY = timedelta(minutes=1)
"""``ApiToken.last_used`` is written at most this often per token (one write, not one per request)."""


class TokenError(FieldError):
    """A token that cannot be created or revoked; ``field`` names the form field (``user``,
    ``days``, ``token``). 403 for a token the director may not revoke, 400 otherwise."""

    def __init__(self, field: str, message: str, status: int = 400):
        super().__init__(field, message)
        self.status = status


@dataclass(frozen=True)
class TokenRow:
    """One line of the event's token list: the ``token`` (prefix, account, created, expiry, last
    used; never its key or digest), the account's ``roles`` in this event (role codes), and
    whether the director looking may ``revoke`` it."""

    token: ApiToken
    roles: tuple[str, ...]
    revoke: bool

    @property
    def role_labels(self) -> list[str]:
        """The roles' names, translated."""
        return [str(EventRole.Role(role).label) for role in self.roles]


def _directs(user, event: Event) -> bool:
    return user.is_superuser or EventRole.objects.filter(event=event, user=user, role=EventRole.Role.DIRECTOR).exists()


def _only_here(user_id: int, event: Event) -> bool:
    """Whether the account holds roles in ``event`` and in no other event."""
    events = set(EventRole.objects.filter(user_id=user_id).values_list("event_id", flat=True))
    return events == {event.pk}


def may_revoke(token: ApiToken, event: Event, actor) -> bool:
    """Whether ``actor`` (a director of ``event``, or a superuser) may revoke ``token`` from the
    event's page (the module docstring says why). One or two queries."""
    if actor.is_superuser or token.user_id == actor.pk:
        return True
    if not _directs(actor, event):
        return False
    if token.event_id == event.pk:
        return True
    return not token.user.is_superuser and _only_here(token.user_id, event)


def event_tokens(event: Event, actor) -> list[TokenRow]:
    """The tokens listed on ``event``'s API tokens page for ``actor``: those of every account
    holding a role in the event, and those created for the event; newest first. Expired tokens
    are left out (:func:`delete_expired_tokens` deletes them). Two queries."""
    holders = EventRole.objects.filter(event=event).values("user_id")
    now = timezone.now()
    tokens = list(
        ApiToken.objects.filter(Q(user__in=holders) | Q(event=event))
        .filter(Q(expiry__isnull=True) | Q(expiry__gt=now))
        .select_related("user", "created_by")
        .order_by("-created", "-id")
    )
    user_ids = {t.user_id for t in tokens}
    here: dict[int, list[str]] = {}
    elsewhere: set[int] = set()
    for user_id, event_id, role in EventRole.objects.filter(user_id__in=user_ids).values_list("user_id", "event_id", "role"):
        if event_id == event.pk:
            here.setdefault(user_id, []).append(role)
        else:
            elsewhere.add(user_id)
    directs = actor.is_superuser or EventRole.Role.DIRECTOR in here.get(actor.pk, [])

    def revocable(token: ApiToken) -> bool:
        if actor.is_superuser or token.user_id == actor.pk:
            return True
        if not directs:
            return False
        return token.event_id == event.pk or (token.user_id in here and token.user_id not in elsewhere
                                              and not token.user.is_superuser)

    return [TokenRow(t, tuple(sorted(here.get(t.user_id, []))), revocable(t)) for t in tokens]


def token_holders(event: Event, actor) -> list:
    """The accounts ``actor`` may create a token for in ``event``: themselves first, then the
    event's scorers who hold no role in another event and are neither staff nor superusers, by
    user name."""
    users = get_user_model().objects
    scorers = EventRole.objects.filter(event=event, role=EventRole.Role.SCORER).values("user_id")
    elsewhere = EventRole.objects.exclude(event=event).values("user_id")
    others = (users.filter(pk__in=scorers, is_staff=False, is_superuser=False, is_active=True)
              .exclude(pk__in=elsewhere).exclude(pk=actor.pk).order_by(users.model.USERNAME_FIELD))
    return [actor, *others]


def _days(days) -> int:
    if days in (None, ""):
        return settings.API_TOKEN_DAYS
    try:
        value = int(days)
    except (TypeError, ValueError):
        value = 0
    if not 1 <= value <= MAX_DAYS:
        raise TokenError("days", _("Give the number of days the token works, from 1 to %(max)s.") % {"max": MAX_DAYS})
    return value


def _audit(event: Event, action: str, actor, token: ApiToken) -> None:
    event.log(action, actor, user=token.user.get_username(), prefix=token.token_key,
              expiry=token.expiry.isoformat() if token.expiry else None)


def new_form_id() -> str:
    """A one-time id for a create form (:func:`create_token`'s ``form_id``)."""
    return secrets.token_urlsafe(24)


@transaction.atomic
def create_token(event: Event, *, actor, username: str = "", days=None, form_id: str = "") -> tuple[ApiToken, str | None]:
    """A new API token for ``actor`` (a director of ``event``; superusers count) or, when
    ``username`` names another account, for that account, valid ``days`` days (1 to
    :data:`MAX_DAYS`; blank: ``settings.API_TOKEN_DAYS``). Returns ``(token, key)``: the key is in
    no other place, show it once and forget it. AuditEntry ``api-token-created``.

    ``form_id`` (:func:`new_form_id`, sent with the form): the same form sent again (a reload of
    the answer) creates nothing and returns ``(the token it created, None)``: its key was shown
    once, with the first answer.

    Raises TokenError: 403 ("user") when ``actor`` does not direct the event; 400 ("user") for an
    account that is not the actor and not one of :func:`token_holders`; 400 ("days") for a
    count out of range; 400 ("form_id") for the id of another director's form."""
    if not _directs(actor, event):
        raise TokenError("user", _("Only a director of this event creates API tokens here."), status=403)
    form_id = (form_id or "")[:64] or None
    if form_id is not None:
        sent = ApiToken.objects.select_related("user").filter(form_id=form_id).first()
        if sent is not None:
            if sent.created_by_id != actor.pk or sent.event_id != event.pk:
                raise TokenError("form_id", _("This form is out of date: open the API tokens page again."))
            return sent, None
    life = _days(days)
    username = (username or "").strip()
    if not username or username.casefold() == actor.get_username().casefold():
        owner = actor
    else:
        owner = next((u for u in token_holders(event, actor)[1:] if u.get_username().casefold() == username.casefold()), None)
        if owner is None:
            raise TokenError("user", _("A token can be made for yourself or for a scorer of this event who holds no role in "
                                       "another event (and is not a staff account): %(user)s is not one.") % {"user": username})
    delete_expired_tokens()
    token, key = ApiToken.objects.create(owner, expiry=timedelta(days=life), event=event, created_by=actor, form_id=form_id)
    _audit(event, "api-token-created", actor, token)
    return token, key


@transaction.atomic
def revoke_token(event: Event, token_id, *, actor) -> ApiToken | None:
    """Revoke (delete) the token ``token_id`` listed on ``event``'s page (:func:`event_tokens`),
    when ``actor`` may (:func:`may_revoke`). Returns the revoked token, or None when it is already
    gone (revoked or expired: a repeated POST changes nothing). AuditEntry ``api-token-revoked``.

    Raises TokenError ("token"): 403 when ``actor`` may not revoke it."""
    try:
        token_id = int(token_id)
    except (TypeError, ValueError):
        return None
    holders = EventRole.objects.filter(event=event).values("user_id")
    token = (ApiToken.objects.select_for_update().select_related("user")
             .filter(Q(user__in=holders) | Q(event=event), pk=token_id).first())
    if token is None:
        return None
    if not may_revoke(token, event, actor):
        raise TokenError("token", _("This token's account acts in another event too: only its owner or a superuser "
                                    "can revoke it."), status=403)
    _audit(event, "api-token-revoked", actor, token)
    token.delete()
    return token


def issue_token(user, *, days: int | None = None) -> str:
    """A new token of ``user`` made outside any event's page (tests, the load test, a shell):
    its key. ``days``: its life (None: ``settings.API_TOKEN_DAYS``)."""
    return ApiToken.objects.create(user, expiry=timedelta(days=days or settings.API_TOKEN_DAYS))[1]


def record_use(token: ApiToken, now: datetime | None = None) -> None:
    """Set ``token.last_used`` to now, writing at most once per :data:`LAST_USED_EVERY`."""
    now = now or timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now


def delete_expired_tokens(now: datetime | None = None) -> int:
    """Delete every token whose ``expiry`` is past (``now``: the time to compare with, default
    now); returns how many. Authentication refuses an expired token without deleting it
    (:class:`TokenAuthentication`): this does, from the periodic Celery task
    :func:`tournament.tasks.delete_expired_api_tokens` (``CELERY_BEAT_SCHEDULE``) and whenever a
    token is created (:func:`create_token`), so an installation without a worker drops them too.
    One statement (and one per token row's cascade, none today)."""
    deleted, _rows = ApiToken.objects.filter(expiry__lt=now or timezone.now()).delete()
    return deleted


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's ``Authorization: Token <key>`` authentication in one indexed query: the token by
    its prefix (``token_key``, indexed) with its user joined, the key's SHA-512 digest compared
    in constant time (:func:`hmac.compare_digest`), recording the token's last use
    (:func:`record_use`: an UPDATE at most once a minute).

    Refused with 401 (``AuthenticationFailed``, knox's messages): an unknown key, a key whose
    prefix matches and digest does not, an expired token ("Invalid token.", as knox; the row is
    left for :func:`delete_expired_tokens`, not deleted in the request), an inactive user ("User
    inactive or deleted."). knox's own lookup read every token of the prefix and every token of
    its user (deleting the expired ones) on each request. knox's ``AUTO_REFRESH`` is kept (off
    here)."""

    def authenticate_credentials(self, token: bytes):
        """``(user, ApiToken)`` for the key ``token`` (the header's bytes); raises
        ``AuthenticationFailed`` as the class docstring says."""
        message = knox_gettext("Invalid token.")
        try:
            key = token.decode("utf-8")
            digest = hash_token(key)
        except (UnicodeDecodeError, TypeError, binascii.Error):
            raise exceptions.AuthenticationFailed(message) from None
        now = timezone.now()
        for auth_token in ApiToken.objects.filter(token_key=key[:CONSTANTS.TOKEN_KEY_LENGTH]).select_related("user"):
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < now:
                break
            if knox_settings.AUTO_REFRESH and auth_token.expiry:
                self.renew_token(auth_token)
            return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(message)

    def validate_user(self, auth_token):
        user, token = super().validate_user(auth_token)
        record_use(token)
        return user, token


class TokenScheme(KnoxTokenScheme):
    """The API schema's description of :class:`TokenAuthentication` (drf-spectacular)."""

    target_class = "tournament.api_tokens.TokenAuthentication"
    name = "apiToken"
