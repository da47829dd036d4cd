"""The regrouping method of a session in the page's language: ``{% load regrouping_words %}``
then ``{{ session.regrouping_method|regrouping_method }}``.

:func:`tournament.regrouping.regroup` names the method it used in English, and the session stores
that name (``Session.regrouping_method``, the event export): ``"affine geometry AG(2,4)"``,
``"transversal design TD(4,5) repeated"``, ``"affine geometry AG(2,4) + tabu search (time limit)"``.
This filter reads the name back and says it in the active language, in plain words where the
name is jargon (the tabu search is "seating that keeps repeat meetings few"); the design's symbol
(``AG(2,4)``) is kept as mathematicians write it. A name it does not know is shown as stored.
"""

import re

from django import template
from django.utils.translation import gettext as _

register = template.Library()

_DESIGNS = (
    (re.compile(r"affine geometry (AG\(\d+,\d+\))"), lambda d: _("affine geometry %(design)s") % {"design": d}),
    (re.compile(r"transversal design (TD\(\d+,\d+\))"), lambda d: _("transversal design %(design)s") % {"design": d}),
    (re.compile(r"Kirkman triple system (KTS\(\d+\))"), lambda d: _("Kirkman triple system %(design)s") % {"design": d}),
)
_TIME_LIMIT = " (time limit)"
_TABU = "tabu search"
_REPEATED = " repeated"


def _design(name: str) -> str | None:
    """One design's name translated, or None when it is not one of :mod:`tournament.regrouping`'s."""
    fixed = {"single group": _("single group"), "round robin (circle method)": _("round robin (circle method)"),
             "given order": _("given order")}
    if name in fixed:
        return fixed[name]
    for pattern, say in _DESIGNS:
        match = pattern.fullmatch(name)
        if match:
            return say(match.group(1))
    return None


@register.filter
def regrouping_method(method) -> str:
    """A stored regrouping method name in the active language (see the module doc)."""
    name = str(method or "")
    stopped = name.endswith(_TIME_LIMIT)
    rest = name[:-len(_TIME_LIMIT)] if stopped else name
    if rest == _TABU:
        said = _("seating that keeps repeat meetings few")
    elif rest.endswith(" + " + _TABU):
        design = _design(rest[:-len(" + " + _TABU)])
        said = _("%(design)s, then seating that keeps repeat meetings few") % {"design": design} if design else None
    elif rest.endswith(_REPEATED):
        design = _design(rest[:-len(_REPEATED)])
        said = _("%(design)s, repeated") % {"design": design} if design else None
    else:
        said = _design(rest)
    if said is None:
        return name
    return _("%(method)s (stopped at the time limit)") % {"method": said} if stopped else said
