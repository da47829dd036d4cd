"""Set names for templates: ``{% load set_codes %}`` then ``{% set_code session set_no %}`` →
``1-07-3``, the code printed on the set's label, stickers, set-up, score and movement sheets
(:func:`walls.setcode.set_code`), so a page names a set as the paper in the player's hand does."""

from django import template

from walls.setcode import SetCodeError, set_code as code_of

register = template.Library()


@register.simple_tag
def set_code(session, set_no, reserve=0) -> str:
    """The printed code of set ``set_no`` of ``session`` (``1-07-3``); the bare number when the
    numbers are out of a set code's range (never an error on a page)."""
    try:
        return code_of(int(session), int(set_no), int(reserve or 0))
    except (SetCodeError, TypeError, ValueError):
        return str(set_no)
