"""What a print kind is: :class:`PrintKind`, declared by each family of documents beside the
builder that turns the event's rows into the values of the pure renderer :mod:`walls.printing`
(docs/printing.md, "Print kinds"), and :class:`PrintError`, a print request that cannot be served."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tournament.errors import FieldError
from tournament.models import Event, Table
from tournament.venue import address_problem


@dataclass(frozen=True)
class PrintKind:
    """One kind of print, declared once beside its builder (a module of :mod:`walls.print_kinds`).

    - ``name``: the kind stored on :class:`~walls.models.PrintJob` and sent by forms.
    - ``label``: what the director's menu shows (translated lazily).
    - ``build``: ``build(event, **params) -> bytes``, the PDF from the event's stored data.
    - ``params``: the request parameters ``build`` takes (``session``, ``sets``, ``template``,
      ``lang``, ``reserve``); others given stay in the job's reuse key and are not passed on.
    - ``needs_walls``: refused until the session's walls are generated.
    - ``in_batch``: part of the session batch (:func:`walls.print_jobs.request_batch`, the demo).
    - ``in_session_zip``: one of the documents of the session's ZIP (kind ``session_zip``).
    - ``reserve``: prints one reserve wall, named by its id in the ``reserve`` parameter
      (:class:`~walls.models.ReserveWall`); offered on the wall page, not in the session menu.
    - ``per_session``: one document per session (its file is named for the session); False for
      the player cards and the calibration page.
    - ``extension``, ``content_type``: the file's type (``"pdf"``, ``"application/pdf"``; the
      session's ZIP ``"zip"``, ``"application/zip"``).
    - ``parts``: the kind bundles the documents of the kinds ``in_session_zip``: ``build`` takes
      ``parts=[(file name, render), ...]`` (``render() -> bytes``) and a ``progress(done, total)``
      keyword (the job's progress bar) instead of ``params``.
    - ``prints_codes``: the document prints QR codes, each a link to the event's public address
      (:func:`public_address`): refused while the event has none a phone can open.
    """

    name: str
    label: str
    build: Callable[..., bytes]
    params: tuple[str, ...]
    needs_walls: bool = False
    in_batch: bool = True
    in_session_zip: bool = False
    reserve: bool = False
    per_session: bool = True
    extension: str = "pdf"
    content_type: str = "application/pdf"
    parts: bool = False
    prints_codes: bool = False


class PrintError(FieldError):
    """A print request that cannot be served; ``field`` names the input."""


def public_address(event: Event) -> str:
    """The event's public address without its trailing slash, the base of every QR code a document
    prints (the table login, a set label, a sticker, a player card): each code is a link a phone's
    camera app opens. Raises PrintError ``base_url`` naming the fix when phones could not open it
    (:func:`tournament.venue.address_problem`: none set, not http(s), or this computer's own
    address such as ``127.0.0.1``), so no document is printed with codes that open nothing."""
    problem = address_problem(event.base_url)
    if problem:
        raise PrintError("base_url", problem)
    return event.base_url.strip().rstrip("/")


def session_tables(event: Event, session_number: int):
    """The tables of one session of ``event`` (a queryset)."""
    return Table.objects.filter(group__session__event=event, group__session__number=session_number)
