"""A session's documents in two ZIPs (docs/printing.md, "Print kinds and jobs"): ``session_zip``
("Print the table documents (ZIP)") holds the tables' papers, the kinds flagged
``in_session_zip`` that are not ``staff_only``; ``staff_zip`` the staff's, the set-up sheets and
the pick list, which show every tile and must never reach a table. Each file is named for people
(the staff ones ``"STAFF ONLY - …"``). The print job (:func:`walls.print_jobs.render`) hands the
builder those documents as parts (:func:`walls.print_kinds.zip_parts`), so this module needs
neither the registry nor the job module."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Sequence

from django.utils.translation import gettext_lazy

from tournament.models import Event
from walls.print_kinds.base import PrintKind


def session_zip(event: Event, parts: Sequence[tuple[str, Callable[[], bytes]]],
                progress: Callable[[int, int], None] | None = None) -> bytes:
    """The ZIP of ``parts``, ``[(file name, render), ...]`` in order (``render() -> bytes``),
    each stored under its name with a fixed date (2000-01-01, so equal documents give equal
    archives), reporting ``progress(done, total)`` after each. ``event`` is unused (the common
    builder signature)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, (name, render) in enumerate(parts, start=1):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, render())
            if progress:
                progress(done, len(parts))
    return buf.getvalue()


KINDS = (
    PrintKind("session_zip", gettext_lazy("Table documents (ZIP)"), session_zip, ("session", "lang", "template"),
              needs_walls=True, in_batch=False, extension="zip", content_type="application/zip", parts=True,
              prints_codes=True),
    PrintKind("staff_zip", gettext_lazy("Staff documents (ZIP): set-up sheets and pick list"), session_zip,
              ("session", "lang"), needs_walls=True, in_batch=False, extension="zip", content_type="application/zip",
              parts=True, prints_codes=True, staff_only=True),
)
"""The session ZIPs' kinds: the tables' documents, and the staff's."""
