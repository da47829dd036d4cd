"""Who works at an event (docs/director-guide.md, "3. People and entrants"; docs/security.md):
staff, scorer and co-director roles, invitations to existing accounts that wait for their owner,
and the set-password link of a new account.

Each public write is one transaction, audited (:meth:`tournament.models.Event.log`) and safe to
repeat. Errors are :class:`tournament.seating.SetupError` naming the input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournament.models import (
    Event,
    EventRole,
    Invitation,
    Table,
)
from tournament.seating import SetupError

@dataclass(frozen=True)
class InviteResult:
    """The result of :func:`invite`: the ``user`` the name matched or created; ``created``
    (a new account: it holds the role now, and ``set_password_path`` is where its owner
    chooses a password, to hand over once; "" otherwise); ``already`` (an existing account
    that holds the role already); ``pending`` (the :class:`~tournament.models.Invitation`
    waiting for an existing account's owner to accept, None otherwise)."""

    user: object
    created: bool
    set_password_path: str
    already: bool = False
    pending: Invitation | None = None


def set_password_path(user) -> str:
    """The one-time path where ``user`` chooses a password (Django's password-reset confirm
    view, ``password_reset_confirm``; valid until the password changes or
    ``PASSWORD_RESET_TIMEOUT`` passes)."""
    return reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})


def _event_tables(event: Event, tables: Iterable) -> list[Table]:
    ids = {t.pk if isinstance(t, Table) else int(t) for t in tables}
    found = list(Table.objects.filter(group__session__event=event, pk__in=ids))
    if len(found) != len(ids):
        raise SetupError("tables", _("choose tables of this event's seated sessions"))
    return found


def find_account(username: str):
    """The account called ``username``, matched case-insensitively (``Alice.Chen`` is
    ``alice.chen``), or None. Raises SetupError ("username") when two accounts differ only in
    case: the site administrator must rename one."""
    found = list(get_user_model().objects.filter(username__iexact=(username or "").strip())[:2])
    if len(found) > 1:
        raise SetupError("username", _("two accounts are called %(user)s in different cases: ask the site administrator "
                                       "to rename one") % {"user": username})
    return found[0] if found else None


def checked_username(username: str) -> str:
    """``username`` stripped; SetupError ("username") when it is empty, longer than 150 characters
    or holds a space."""
    username = (username or "").strip()
    if not username or len(username) > 150 or any(c.isspace() for c in username):
        raise SetupError("username", _("give a user name without spaces (150 characters at most)"))
    return username


def new_account(username: str):
    """A new account called ``username`` (checked by the caller), without a usable password: its
    owner chooses one at :func:`set_password_path`."""
    user = get_user_model()(username=username)
    user.set_unusable_password()
    user.save()
    return user


def _grant(event: Event, user, role: str, tables: list[Table]) -> bool:
    """Give ``user`` ``role`` in ``event`` (a scorer bound to ``tables``); whether it is new."""
    grant, granted = EventRole.objects.get_or_create(event=event, user=user, role=role)
    if role == EventRole.Role.SCORER:
        grant.tables.set(tables)
    return granted


@transaction.atomic
def invite(event: Event, *, username: str, role: str, tables: Iterable = (), actor: str) -> InviteResult:
    """Invite ``username`` to the ``role`` (staff, scorer or director) in ``event``; a scorer
    is bound to ``tables`` (Table rows or ids of the event's seated sessions). The name is
    matched case-insensitively (:func:`find_account`).

    - An unknown name gets a new account without a usable password, holding the role at once,
      and a set-password link (:func:`set_password_path`): setting the password is the
      acceptance. AuditEntry ``role-granted`` (created true).
    - An existing account never gets the role here: a pending
      :class:`~tournament.models.Invitation` waits until its owner accepts it while logged in
      (:func:`accept_invitation`). AuditEntry ``invitation-sent``. Repeated while pending, it
      changes only a scorer's tables.
    - An account that holds the role already: only a scorer's tables change.

    Raises SetupError ("username", "role", "tables"); nothing is stored then."""
    username = checked_username(username)
    if role not in (EventRole.Role.STAFF, EventRole.Role.SCORER, EventRole.Role.DIRECTOR):
        raise SetupError("role", _("choose staff, scorer or director"))
    chosen = _event_tables(event, tables) if role == EventRole.Role.SCORER else []
    Event.objects.select_for_update().filter(pk=event.pk).first()  # one invitation of a name at a time
    user = find_account(username)
    if user is None:
        user = new_account(username)
        _grant(event, user, role, chosen)
        event.log("role-granted", actor, user=user.get_username(), role=role, created=True,
               tables=sorted(t.number for t in chosen))
        return InviteResult(user, True, set_password_path(user))
    if EventRole.objects.filter(event=event, user=user, role=role).exists():
        _grant(event, user, role, chosen)
        return InviteResult(user, False, "", already=True)
    pending, sent = Invitation.objects.get_or_create(
        event=event, user=user, role=role, status=Invitation.Status.PENDING,
        defaults={"username": username, "invited_by": str(actor)[:150]})
    if role == EventRole.Role.SCORER:
        pending.tables.set(chosen)
    if sent:
        event.log("invitation-sent", actor, user=user.get_username(), typed=username, role=role,
               tables=sorted(t.number for t in chosen))
    return InviteResult(user, False, "", pending=pending)


def pending_invitations(event: Event | None = None, *, user=None):
    """The pending invitations of ``event`` and/or of ``user`` (an account), oldest first,
    with their event, user and tables fetched."""
    rows = Invitation.objects.filter(status=Invitation.Status.PENDING)
    if event is not None:
        rows = rows.filter(event=event)
    if user is not None:
        rows = rows.filter(user=user) if user.is_authenticated else rows.none()
    return rows.select_related("event", "user").prefetch_related("tables").order_by("created", "pk")


def _own_invitation(invitation_id, user) -> Invitation:
    """The invitation ``invitation_id`` of ``user``, locked; SetupError ("invitation") when
    there is none (another account's invitation is not told apart from a missing one)."""
    found = (Invitation.objects.select_for_update().filter(pk=_id(invitation_id), user=user).first()
             if user is not None and user.is_authenticated else None)
    if found is None:
        raise SetupError("invitation", _("no such invitation for your account: reload the page"))
    return found


def _id(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@transaction.atomic
def accept_invitation(invitation_id, *, user) -> EventRole:
    """The logged-in ``user`` accepts their invitation ``invitation_id``: they get exactly the
    role invited (a scorer its tables still in the event); returns the role. AuditEntry
    ``invitation-accepted`` (user, role, tables, invited_by). Accepting again returns the role
    and changes nothing. Raises SetupError ("invitation") for another account's invitation, one
    declined or withdrawn, or one accepted whose role a director has removed since."""
    invitation = _own_invitation(invitation_id, user)
    if invitation.status == Invitation.Status.ACCEPTED:
        grant = EventRole.objects.filter(event=invitation.event, user=user, role=invitation.role).first()
        if grant is None:  # removed by a director since: an old invitation never brings it back
            raise SetupError("invitation", _("this invitation was used and the role removed since: ask the director "
                                             "for a new one"))
        return grant
    if invitation.status in (Invitation.Status.DECLINED, Invitation.Status.WITHDRAWN):
        raise SetupError("invitation", _("this invitation was %(status)s: ask the director for a new one")
                         % {"status": invitation.get_status_display()})
    tables = list(invitation.tables.filter(group__session__event=invitation.event))
    _grant(invitation.event, user, invitation.role, tables)
    invitation.status = Invitation.Status.ACCEPTED
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    invitation.event.log("invitation-accepted", user.get_username(), user=user.get_username(), role=invitation.role,
           tables=sorted(t.number for t in tables), invited_by=invitation.invited_by)
    return EventRole.objects.get(event=invitation.event, user=user, role=invitation.role)


@transaction.atomic
def decline_invitation(invitation_id, *, user) -> bool:
    """The logged-in ``user`` declines their pending invitation ``invitation_id``; returns
    whether it was pending. AuditEntry ``invitation-declined``. Raises SetupError
    ("invitation") for another account's invitation."""
    invitation = _own_invitation(invitation_id, user)
    if invitation.status != Invitation.Status.PENDING:
        return False
    invitation.status = Invitation.Status.DECLINED
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    invitation.event.log("invitation-declined", user.get_username(), user=user.get_username(), role=invitation.role)
    return True


@transaction.atomic
def withdraw_invitation(event: Event, invitation_id, *, actor: str) -> bool:
    """The director withdraws ``event``'s invitation ``invitation_id`` before it is answered;
    returns whether it was pending. AuditEntry ``invitation-withdrawn``. Raises SetupError
    ("invitation") for an invitation of another event or one already accepted (remove the
    role instead)."""
    invitation = Invitation.objects.select_for_update().filter(pk=_id(invitation_id), event=event).first()
    if invitation is None:
        raise SetupError("invitation", _("no such invitation in this event: reload the page"))
    if invitation.status == Invitation.Status.ACCEPTED:
        raise SetupError("invitation", _("%(user)s has accepted already: remove the role instead")
                         % {"user": invitation.user.get_username()})
    if invitation.status != Invitation.Status.PENDING:
        return False
    invitation.status = Invitation.Status.WITHDRAWN
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    event.log("invitation-withdrawn", actor, user=invitation.user.get_username(), role=invitation.role)
    return True


@transaction.atomic
def revoke_role(event: Event, *, username: str, role: str, actor: str) -> bool:
    """Take ``role`` in ``event`` away from ``username`` (matched case-insensitively); returns
    whether it was held. The last director cannot be removed (SetupError "role"). AuditEntry
    ``role-revoked``."""
    user = find_account(username)
    grant = EventRole.objects.filter(event=event, user=user, role=role).first() if user is not None else None
    if grant is None:
        return False
    if role == EventRole.Role.DIRECTOR and event.roles.filter(role=role).count() == 1:
        raise SetupError("role", _("the event needs a director: invite another before removing this one"))
    grant.delete()
    event.log("role-revoked", actor, user=user.get_username(), role=role)
    return True


@transaction.atomic
def set_scorer_tables(event: Event, *, username: str, tables: Iterable, actor: str) -> list[Table]:
    """Bind ``username``'s (matched case-insensitively) scorer role to exactly ``tables`` (rows
    or ids of the event's seated sessions); returns them by number. AuditEntry
    ``scorer-tables`` when they change. Raises SetupError ("username") when the user holds no
    scorer role, ("tables") for a table of another event."""
    user = find_account(username)
    grant = (EventRole.objects.filter(event=event, user=user, role=EventRole.Role.SCORER).first()
             if user is not None else None)
    if grant is None:
        raise SetupError("username", _("%(user)s is not a scorer of this event: invite them first") % {"user": username})
    chosen = sorted(_event_tables(event, tables), key=lambda t: t.number)
    before = sorted(grant.tables.values_list("number", flat=True))
    grant.tables.set(chosen)
    after = [t.number for t in chosen]
    if after != before:
        event.log("scorer-tables", actor, user=user.get_username(), before=before, tables=after)
    return chosen


