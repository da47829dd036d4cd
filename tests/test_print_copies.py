"""Physical copies on paper: a session prints exactly as many stickers, set labels and per-copy
set-up sheets of each set as its movement needs (:attr:`tournament.movement.Movement.copies`),
each labelled with the table that plays that copy first (docs/printing.md, "Wall stickers"; docs/seating.md, "Physical copies and groups sharing the walls").

A staggered session (groups sharing walls across rooms, ``Session.staggered``) needs fewer copies
than one per group: two groups play one copy in turn (MCR, 4-hand blocks). Printing one copy per
group there would lay twice the walls the staff must carry."""

from collections import Counter

import pytest

from pdfcheck import decode_qr, page_count, render_pages
from tournament.models import Table
from tournament.movement import ruleset_movement
from walls.print_jobs import request_print
from walls.print_kinds.walls import first_tables, printable_sets, sticker_sets
from walls.setcode import parse_payload

pytestmark = pytest.mark.django_db


def _first_plays(movement, event, session_number):
    """(set, copy) → "Group g · Table n" of the table whose play of that copy comes first."""
    tables = {((t.group.number - 1) * movement.n_tables + t.position): t
              for t in Table.objects.filter(group__session__event=event, group__session__number=session_number)
              .select_related("group")}
    first = {}
    for set_no, copy, _time, index in movement.uses():
        if (set_no, copy) not in first:
            t = tables[index]
            first[(set_no, copy)] = f"Group {t.group.number} · Table {t.number}"
    return first


def test_a_staggered_session_prints_the_copies_its_movement_needs(staggered_event):
    session = staggered_event.sessions.get(number=1)
    movement = ruleset_movement(staggered_event.get_ruleset(), n_groups=session.groups.count(), stagger=True)
    assert session.staggered and movement.copies < session.groups.count()
    sets = range(1, staggered_event.get_ruleset().hands_per_session + 1)
    firsts = first_tables(staggered_event, 1)
    expected = _first_plays(movement, staggered_event, 1)
    for set_no in sets:
        assert firsts[set_no] == [expected[(set_no, copy)] for copy in range(movement.copies)], set_no
    stickers = Counter(s.set_id.set_no for s in sticker_sets(staggered_event, 1))
    labels = Counter(p.set_id.set_no for p in printable_sets(staggered_event, 1, per_copy=True))
    assert stickers == labels == {set_no: movement.copies for set_no in sets}
    job = request_print(staggered_event, "labels", {"session": 1, "sets": [1, 2]})
    data = job.file.read()
    payloads = [parse_payload(code).set_no for page in render_pages(data) for code in decode_qr(page.image)]
    assert Counter(payloads) == {1: movement.copies, 2: movement.copies}
    assert page_count(data) >= 1


def test_an_unstaggered_session_prints_one_copy_per_group(team_event):
    session = team_event.sessions.get(number=1)
    groups = session.groups.count()
    assert not session.staggered
    firsts = first_tables(team_event, 1)
    assert all(len(copies) == groups for copies in firsts.values())
    assert firsts[1] == [f"Group {g} · Table {(g - 1) * 4 + 1}" for g in range(1, groups + 1)]
    assert firsts[5][0] == "Group 1 · Table 2"
    movement = ruleset_movement(session.event.get_ruleset(), n_groups=groups, stagger=session.staggered)
    expected = _first_plays(movement, team_event, 1)
    assert firsts == {s: [expected[(s, c)] for c in range(movement.copies)] for s in firsts}
