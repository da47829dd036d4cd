"""The registry of print kinds (docs/printing.md, "Print kinds and jobs"), as pretix registers its
exporters: each family of documents is one module that declares its :class:`~walls.print_kinds.base.PrintKind`
values (``KINDS``) beside the builders that turn the event's rows into the values of the pure
renderer :mod:`walls.printing`:

- :mod:`walls.print_kinds.walls`: wall stickers, set labels, set-up sheets, pick list;
- :mod:`walls.print_kinds.tables`: score sheets, movement sheet;
- :mod:`walls.print_kinds.people`: seating sheet, seating lists by room, player cards;
- :mod:`walls.print_kinds.session_zip`: a session's documents in two ZIPs, the tables' papers and the
  staff's (the kinds ``staff_only``: set-up sheets and pick list, which show every tile);
- :mod:`walls.print_kinds.calibration`: a label stock's calibration page;
- :mod:`walls.print_kinds.reserve`: a reserve wall's set-up sheet, stickers and set label.

Adding a kind is one ``PrintKind`` in its family's ``KINDS``. The job lifecycle (request, reuse,
rendering, file names) is :mod:`walls.print_jobs`.
"""

from __future__ import annotations

from walls.print_kinds import calibration, people, reserve, session_zip, tables, walls
from walls.print_kinds.base import PrintKind

PRINT_KINDS: dict[str, PrintKind] = {
    kind.name: kind
    for family in (walls, tables, people, session_zip, calibration, reserve)
    for kind in family.KINDS
}
"""Every print kind by name, in menu order: the registry."""

BATCH_KINDS = tuple(name for name, kind in PRINT_KINDS.items() if kind.in_batch)
"""The kinds printed for a session in one go (:func:`walls.print_jobs.request_batch`, the demo)."""

ZIP_KINDS = tuple(name for name, kind in PRINT_KINDS.items() if kind.in_session_zip and not kind.staff_only)
"""The documents of a session's ZIP (kind ``session_zip``, "Print the table documents (ZIP)"): the
tables' papers only, never a document that shows the tiles."""

STAFF_ZIP_KINDS = tuple(name for name, kind in PRINT_KINDS.items() if kind.in_session_zip and kind.staff_only)
"""The documents of a session's staff ZIP (kind ``staff_zip``): the set-up sheets and the pick list."""


def zip_parts(kind: str) -> tuple[str, ...]:
    """The kinds whose documents the ZIP kind ``kind`` bundles: :data:`STAFF_ZIP_KINDS` for a
    ``staff_only`` one (``staff_zip``), else :data:`ZIP_KINDS`. Raises KeyError for an unknown kind."""
    return STAFF_ZIP_KINDS if PRINT_KINDS[kind].staff_only else ZIP_KINDS

SESSION_KINDS = tuple(kind for kind in PRINT_KINDS.values() if not kind.reserve)
"""The kinds of the director's session menu: all but a reserve wall's (those are on its wall page)."""

RESERVE_KINDS = tuple(kind for kind in PRINT_KINDS.values() if kind.reserve)
"""A reserve wall's prints, offered on its set's wall page."""
