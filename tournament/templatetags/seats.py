"""Seat names in the page's language, for templates: ``{% load seats %}`` then
``{{ seat|seat_label }}`` (``"E"`` → E / 東 / 东, for grids and column heads) and
``{{ seat|seat_name }}`` (``"E"`` → East / 東家 / 东家, for sentences and headings); and
``{{ pile|pile_title }}`` for the piles of a hand record; ``{{ sentence|changes_together }}`` keeps
each "E +56" of a result sentence on one line.

Both are :mod:`tournament.i18n`'s functions, so a page, a PDF heading and a result sentence name a
seat the same way."""

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from tournament import i18n

register = template.Library()


@register.filter
def seat_label(seat) -> str:
    """``"E"`` → the seat's short label in the active language; other values unchanged."""
    return i18n.seat_label(str(seat)) if seat is not None else ""


@register.filter
def seat_name(seat) -> str:
    """``"E"`` → the seat's wind as a word in the active language; other values unchanged."""
    return i18n.seat_name(str(seat)) if seat is not None else ""


_SEAT_AND_CHANGE = re.compile(r"(\S+) ([+\-\u2212]?\d+)")


@register.filter
def changes_together(sentence) -> str:
    """A result sentence (:func:`scoring.payments.describe`) with each seat label and its score
    change ("E +56", "東 -32") in a ``<span class="change">`` that never breaks across lines, so a
    phone never shows a seat at the end of one line and its points on the next. The text is
    escaped first; a plain space is kept, so the words read and copy as before."""
    return mark_safe(_SEAT_AND_CHANGE.sub(r'<span class="change">\1 \2</span>', str(escape(sentence))))


_PILE_KINDS = {
    "hand": gettext_lazy("Starting hand"),
    "draw": gettext_lazy("Draw pile"),
    "live": gettext_lazy("Live wall"),
    "dead": gettext_lazy("Dead wall"),
}


@register.filter
def pile_title(pile) -> str:
    """A pile of a hand record (``{"name", "seat", "kind"}``, :func:`scoring.reports.hand_record`)
    in the page's language: ``"East · Starting hand"`` (``"東家 · 配牌"``), ``"Dead wall"`` for a
    shared pile; a pile of an unknown kind keeps its name."""
    kind = _PILE_KINDS.get(pile.get("kind"))
    if kind is None:
        return pile.get("name", "")
    seat = pile.get("seat")
    return f"{i18n.seat_name(seat)} · {kind}" if seat else str(kind)


@register.filter
def conversion_label(value: str) -> str:
    """A conversion table version as the reports give it (``"MCR duplicate MP v1"``,
    :meth:`scoring.models.ConversionTable.__str__`) in the page's language: a preset's name
    translated (``"MCR デュプリケート MP v1"``), a name the director typed as it is."""
    name, sep, version = str(value).rpartition(" v")
    if not sep or not version.isdigit():
        return i18n.catalogue_text(str(value))
    return f"{i18n.catalogue_text(name)} v{version}"
