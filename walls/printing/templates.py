"""Label stock: where the labels of a sheet are, in millimetres from the top-left page corner.

A :class:`LabelTemplate` describes a sheet of equal labels in a grid, the way label makers
publish it: page size, rows and columns, the top and left margins to the first label, the pitch
(distance from one label's left/top edge to the next one's) and the label size. Stickers, set
labels and the calibration page all place their content with :func:`label_boxes`.

:data:`PRESETS` holds common A4 and US Letter sheets; :func:`custom_template` builds and checks
any other. Every template is validated when it is made: a label that would not fit on the page,
or labels that overlap, raise :class:`TemplateError` naming the field to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

from tournament.i18n import gettext_noop

PAGE_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "Letter": LETTER}

PageSize = str | tuple[Any, ...]

# Slack for published dimensions that are rounded to 0.1 mm or converted from inches.
_TOLERANCE_MM = 0.05


class TemplateError(ValueError):
    """A label template that cannot be printed; ``field`` names the value to change."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class LabelTemplate:
    """A sheet of ``rows`` × ``columns`` equal labels.

    ``page_size`` is ``"A4"``, ``"Letter"`` or ``(width, height)`` in points; every other length
    is in millimetres: ``margin_top``/``margin_left`` from the page edge to the first label,
    ``pitch_x``/``pitch_y`` from one label's edge to the next one's, ``label_width`` and
    ``label_height``; ``title`` is an optional description for choice lists; ``strips`` marks a
    full-sheet label that wall stickers are printed on as row strips at the tile pitch
    (:mod:`walls.printing.strips`) rather than one per label. Raises :class:`TemplateError` when
    the labels do not fit.
    """

    name: str
    page_size: PageSize
    rows: int
    columns: int
    margin_top: float
    margin_left: float
    pitch_x: float
    pitch_y: float
    label_width: float
    label_height: float
    title: str = ""
    strips: bool = False

    def __post_init__(self) -> None:
        validate(self)

    @property
    def page_points(self) -> tuple[float, float]:
        """The page (width, height) in points."""
        return page_points(self.page_size)

    @property
    def page_mm(self) -> tuple[float, float]:
        """The page (width, height) in millimetres."""
        w, h = self.page_points
        return w / mm, h / mm

    @property
    def per_sheet(self) -> int:
        """Labels on one sheet."""
        return self.rows * self.columns

    @property
    def margin_bottom(self) -> float:
        """Millimetres between the last row of labels and the bottom edge."""
        return self.page_mm[1] - self.margin_top - (self.rows - 1) * self.pitch_y - self.label_height

    @property
    def margin_right(self) -> float:
        """Millimetres between the last column of labels and the right edge."""
        return self.page_mm[0] - self.margin_left - (self.columns - 1) * self.pitch_x - self.label_width

    def describe(self) -> str:
        """One line for headings: the title, else e.g. ``"A4, 4 × 10 labels of 52.5 × 29.7 mm"``."""
        if self.title:
            return self.title
        page = self.page_size if isinstance(self.page_size, str) else "%.0f × %.0f mm" % self.page_mm
        return (
            f"{page}, {self.columns} × {self.rows} labels of "
            f"{self.label_width:g} × {self.label_height:g} mm"
        )


def page_points(page_size: PageSize) -> tuple[float, float]:
    """``"A4"``, ``"Letter"`` or a ``(width, height)`` in points → (width, height) in points."""
    if isinstance(page_size, str):
        try:
            return PAGE_SIZES[page_size]
        except KeyError:
            raise TemplateError("page_size", f"unknown page size {page_size!r}; use A4, Letter or (width, height) in points") from None
    try:
        w, h = (float(v) for v in page_size)
    except (TypeError, ValueError):
        raise TemplateError("page_size", f"expected A4, Letter or (width, height) in points, got {page_size!r}") from None
    if w <= 0 or h <= 0:
        raise TemplateError("page_size", f"width and height must be positive, got {page_size!r}")
    return w, h


def validate(t: LabelTemplate) -> None:
    """Raise :class:`TemplateError` naming the first field that makes ``t`` unprintable."""
    if not t.name:
        raise TemplateError("name", "a template needs a name")
    for field in ("rows", "columns"):
        value = getattr(t, field)
        if not isinstance(value, int) or value < 1:
            raise TemplateError(field, f"must be a whole number of at least 1, got {value!r}")
    for field in ("label_width", "label_height", "pitch_x", "pitch_y"):
        if not getattr(t, field) > 0:
            raise TemplateError(field, f"must be more than 0 mm, got {getattr(t, field)!r}")
    for field in ("margin_top", "margin_left"):
        if not getattr(t, field) >= 0:
            raise TemplateError(field, f"must be 0 mm or more, got {getattr(t, field)!r}")
    page_w, page_h = (v / mm for v in page_points(t.page_size))
    axes = (("columns", "label_width", "pitch_x", "margin_left", page_w, "wider", "column", "wide"),
            ("rows", "label_height", "pitch_y", "margin_top", page_h, "taller", "row", "tall"))
    for count, size, pitch, margin, page, more, line, extent in axes:
        n, width, step, start = (getattr(t, f) for f in (count, size, pitch, margin))
        if n > 1 and width > step + _TOLERANCE_MM:
            raise TemplateError(size, f"{width:g} mm is {more} than {pitch} {step:g} mm: labels would overlap")
        end = start + (n - 1) * step + width
        if end > page + _TOLERANCE_MM:
            raise TemplateError(
                count if n > 1 else size,
                f"the last {line} ends at {end:.1f} mm but the page is {page:.1f} mm {extent} "
                f"({margin} {start:g} + {n - 1} × {pitch} {step:g} + {size} {width:g})",
            )


def custom_template(name: str, page_size: PageSize, rows: int, columns: int, *, label_width: float,
                    label_height: float, margin_top: float | None = None, margin_left: float | None = None,
                    pitch_x: float | None = None, pitch_y: float | None = None, title: str = "") -> LabelTemplate:
    """A template for other label stock; omitted pitches default to the label size (no gap) and
    omitted margins centre the grid on the page. Raises :class:`TemplateError`."""
    pitch_x = label_width if pitch_x is None else pitch_x
    pitch_y = label_height if pitch_y is None else pitch_y
    page_w, page_h = (v / mm for v in page_points(page_size))
    if margin_left is None:
        margin_left = round((page_w - (columns - 1) * pitch_x - label_width) / 2, 2)
    if margin_top is None:
        margin_top = round((page_h - (rows - 1) * pitch_y - label_height) / 2, 2)
    return LabelTemplate(name, page_size, rows, columns, margin_top, margin_left, pitch_x, pitch_y,
                         label_width, label_height, title)


def label_boxes(t: LabelTemplate) -> list[tuple[float, float, float, float]]:
    """The labels of one sheet as ``(x, y, width, height)`` in points with reportlab's origin
    (bottom-left corner of the page), in reading order: left to right, then top to bottom."""
    _, page_h = t.page_points
    w, h = t.label_width * mm, t.label_height * mm
    boxes = []
    for r in range(t.rows):
        top = page_h - (t.margin_top + r * t.pitch_y) * mm
        for c in range(t.columns):
            boxes.append(((t.margin_left + c * t.pitch_x) * mm, top - h, w, h))
    return boxes


_IN = 25.4

PRESETS: dict[str, LabelTemplate] = {
    t.name: t
    for t in (
        # Borderless A4 sheets: the grid covers the whole page.
        LabelTemplate("a4-70", "A4", 10, 7, 0, 0, 30, 29.7, 30, 29.7,
                      gettext_noop("A4, 70 labels 30 × 29.7 mm (7 × 10, borderless)")),
        LabelTemplate("a4-40", "A4", 10, 4, 0, 0, 52.5, 29.7, 52.5, 29.7,
                      gettext_noop("A4, 40 labels 52.5 × 29.7 mm (4 × 10, borderless)")),
        LabelTemplate("a4-65", "A4", 13, 5, 10.7, 4.7, 40.6, 21.2, 38.1, 21.2,
                      gettext_noop("A4, 65 labels 38.1 × 21.2 mm (Avery L7651 and compatible)")),
        LabelTemplate("a4-24", "A4", 8, 3, 0.5, 0, 70, 37, 70, 37,
                      gettext_noop("A4, 24 labels 70 × 37 mm (3 × 8)")),
        LabelTemplate("a4-21", "A4", 7, 3, 15.15, 7.2, 66.0, 38.1, 63.5, 38.1,
                      gettext_noop("A4, 21 labels 63.5 × 38.1 mm (Avery L7160 and compatible)")),
        LabelTemplate("letter-80", "Letter", 20, 4, 0.5 * _IN, 0.3 * _IN, 2.05 * _IN, 0.5 * _IN, 1.75 * _IN, 0.5 * _IN,
                      gettext_noop("US Letter, 80 labels 1¾ × ½ in (Avery 5167 and compatible)")),
        LabelTemplate("letter-30", "Letter", 10, 3, 0.5 * _IN, 0.1875 * _IN, 2.75 * _IN, 1 * _IN, 2.625 * _IN, 1 * _IN,
                      gettext_noop("US Letter, 30 labels 2⅝ × 1 in (Avery 5160 and compatible)")),
        LabelTemplate("letter-10", "Letter", 5, 2, 0.5 * _IN, 0.156 * _IN, 4.1875 * _IN, 2 * _IN, 4 * _IN, 2 * _IN,
                      gettext_noop("US Letter, 10 labels 4 × 2 in (Avery 5163 and compatible)")),
        # Full-sheet labels: wall stickers go on them as row strips at the tile pitch.
        LabelTemplate("a4-strips", "A4", 1, 1, 3.95, 5.2, 199.6, 289.1, 199.6, 289.1,
                      gettext_noop("A4 full-sheet label (Avery L7167 and compatible): row strips at the tile pitch"),
                      strips=True),
        LabelTemplate("letter-strips", "Letter", 1, 1, 0, 0, 8.5 * _IN, 11 * _IN, 8.5 * _IN, 11 * _IN,
                      gettext_noop("US Letter full-sheet label (Avery 5165 and compatible): row strips at the tile pitch"),
                      strips=True),
    )
}
"""Common label sheets by name; ``title`` is the text for a choice list."""

DEFAULT_TEMPLATE = "a4-strips"
"""Wall stickers on A4: row strips on a full-sheet label, each seat's rows at the pitch of the
event's tiles (:mod:`walls.printing.strips`), so they fit any tile size; a grid stock is checked
against the tile (:func:`walls.printing.tilesize.check_stock`)."""
DEFAULT_LABEL_TEMPLATE = "a4-21"
"""Set labels on A4 (one per physical set, stuck on its box or frame)."""


def get_template(name: str) -> LabelTemplate:
    """A preset by its name; raises :class:`TemplateError` listing the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise TemplateError("name", f"no label template {name!r}; known: {', '.join(PRESETS)}") from None
