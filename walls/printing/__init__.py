"""PDFs from plain data: wall stickers, set labels, set-up sheets, pick lists, score and movement
sheets, seating lists (whole session, per room), player cards, and a calibration page for label stock (docs/printing.md).

No Django import: walls/print_kinds/ builds the input values (:class:`PrintableSet`,
:class:`ScoreSheet`, movement rows) and calls these functions; each returns the PDF as bytes,
byte-for-byte the same for the same input.
"""

from walls.printing.data import MovementRow, PrintableSet, PrintDataError, ScoreSheet
from walls.printing.fonts import cjk_font_embedded, find_cjk_font
from walls.printing.labels import render_calibration, render_set_labels
from walls.printing.movement_sheets import render_movement_sheet
from walls.printing.player_cards import CardSeat, PlayerCard, render_player_cards
from walls.printing.score_sheets import render_score_sheet, render_score_sheets
from walls.printing.seating_sheets import render_room_seating, render_seating_sheet
from walls.printing.setup_sheets import render_pick_list, render_setup_sheets
from walls.printing.stickers import render_wall_stickers
from walls.printing.templates import (
    DEFAULT_LABEL_TEMPLATE,
    DEFAULT_TEMPLATE,
    PRESETS,
    LabelTemplate,
    TemplateError,
    custom_template,
    get_template,
)

__all__ = [
    "DEFAULT_LABEL_TEMPLATE",
    "DEFAULT_TEMPLATE",
    "PRESETS",
    "CardSeat",
    "LabelTemplate",
    "MovementRow",
    "PlayerCard",
    "PrintDataError",
    "PrintableSet",
    "ScoreSheet",
    "TemplateError",
    "cjk_font_embedded",
    "custom_template",
    "find_cjk_font",
    "get_template",
    "render_calibration",
    "render_movement_sheet",
    "render_pick_list",
    "render_player_cards",
    "render_room_seating",
    "render_score_sheet",
    "render_score_sheets",
    "render_seating_sheet",
    "render_set_labels",
    "render_setup_sheets",
    "render_wall_stickers",
]
