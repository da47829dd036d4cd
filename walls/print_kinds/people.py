"""The papers about people (docs/printing.md): the seating sheet, the seating lists by room and
the player cards, each kind declared beside the builder that reads who sits where
(:func:`tournament.table_plan.seating_list`, :func:`tournament.seating.itineraries`)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from tournament.models import Event, Player
from tournament.check_in import card_token
from tournament.seating import entrant_players
from tournament.table_plan import itineraries, seating_list
from walls import printing
from walls.print_kinds.base import PrintKind, public_address


def seating_rows(event: Event, session_number: int) -> list[dict]:
    """Rows of everyone seated in the session (:func:`tournament.table_plan.seating_list`: ``{"player",
    "team", "table", "room", "seat", "seat_index", ...}``) sorted by table, then seat in the rule
    set's order: the seating sheet."""
    return sorted(seating_list(event, session_number), key=lambda r: (r["table"], r["seat_index"]))


def room_seating_rows(event: Event, session_number: int) -> list[dict]:
    """The same rows sorted by room, table and seat (as :func:`tournament.table_plan.seating_list`
    gives them): the per-room seating lists."""
    return list(seating_list(event, session_number))


def find_seat_url(event: Event) -> str:
    """The public "find my seat" address of ``event``, ``<base_url>/e/<slug>/find/``, that the
    player cards' QR codes open. Raises PrintError ``base_url`` when the event has no public
    address a phone can open (:func:`~walls.print_kinds.base.public_address`)."""
    return f"{public_address(event)}/e/{event.slug}/find/"


def check_in_url(event: Event, player: Player) -> str:
    """The link of ``player``'s card QR code, ``<base_url>/e/<slug>/card/<number>/<secret>/``:
    it opens their own check-in page (:func:`tournament.check_in.card_token`, docs/director-guide.md,
    "Self check-in")."""
    return f"{public_address(event)}/e/{event.slug}/card/{player.number}/{card_token(player)}/"


def player_cards(event: Event) -> list[printing.PlayerCard]:
    """One :class:`walls.printing.PlayerCard` per player who holds a seat now in a seated session,
    or who plays on in a session not seated yet (:func:`tournament.seating.entrant_players`): by
    team, then member; individual events by name. Each card gives name, team, PIN, the
    player's check-in link as a QR code (:func:`check_in_url`), the find-my-seat address and the seats the player holds now (:func:`tournament.table_plan.itineraries`):
    a seat handed over by a substitution is on the card of the player who took it, never on two
    cards. No card for a withdrawn entrant or for a player replaced for good."""
    held = {pk: [s for s in entries if not s["replaced_by"]] for pk, entries in itineraries(event).items()}
    people = {p.pk: p for p in Player.objects.filter(event=event, pk__in=[pk for pk, s in held.items() if s])
              .select_related("team")}
    if event.sessions.count() < event.sessions_planned:  # later sessions to play: everyone still in
        people.update({p.pk: p for p in entrant_players(event)})
    ordered = sorted(people.values(), key=lambda p: (p.team.number, p.member, p.number) if p.team_id
                     else (1 << 30, p.name.casefold(), p.number))
    url = find_seat_url(event)
    return [
        printing.PlayerCard(
            event_name=event.name, player=p.name, team=p.team.name if p.team_id else "", pin=p.pin, find_url=url,
            check_in_url=check_in_url(event, p),
            seats=[printing.CardSeat(session=s["session"], table=s["table"], room=s["room"], seat=s["seat"])
                   for s in held.get(p.pk, [])],
        )
        for p in ordered
    ]


def _seating_sheet(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_seating_sheet(seating_rows(event, session), title=event.name, session=session, lang=lang)


def _room_seating(event: Event, session: int = 1, lang: str = "en") -> bytes:
    return printing.render_room_seating(room_seating_rows(event, session), title=event.name, session=session, lang=lang)


def _player_cards(event: Event, lang: str = "en") -> bytes:
    return printing.render_player_cards(player_cards(event), lang=lang)



KINDS = (
    PrintKind("seating", gettext_lazy("Seating sheet"), _seating_sheet, ("session", "lang"), in_session_zip=True),
    PrintKind("room_seating", gettext_lazy("Seating lists by room"), _room_seating, ("session", "lang"),
              in_batch=False, in_session_zip=True),
    PrintKind("player_cards", gettext_lazy("Player cards"), _player_cards, ("lang",), in_batch=False,
              in_session_zip=True, per_session=False, prints_codes=True),
)
"""The people's papers' kinds, in menu order."""
