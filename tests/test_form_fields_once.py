"""The hand forms' fields are set up once per process for each rule set, language, table's
players and form argument (:data:`scoring.forms._FIELD_SETS`, a :class:`tournament.cache.Kept`), then shared by the forms made
with the same ones: a form given the kept fields shows and checks exactly what a form set up
afresh shows and checks, and never another table's players, another language's words or
another form's choice of seat."""

from __future__ import annotations

import pytest
from django.utils import translation

from factories import prepared_event, team_roster
from scoring import forms as scoring_forms
from scoring.forms import CorrectionForm, TableEntryForm
from tournament.cache import Kept
from tournament.models import Table
from tournament.table_plan import table_plan

pytestmark = pytest.mark.django_db

ENTRY = {"set_no": "1", "mode": "outcome", "kind": "discard", "winners": "E", "discarder": "S", "value_E": "10",
         "entered_by_seat": "E", "entry_pin": "1234"}


@pytest.fixture
def tables():
    event = prepared_event(team_roster(8), name="Fields once", slug="fields-once")
    found = list(Table.objects.filter(group__session__event=event).select_related("group__session__event")[:2])
    return [(t, table_plan(t).holders(t)) for t in found]


def _view(form) -> dict:
    """What a person sees and what the checks read, field by field."""
    out = {}
    for name, field in form.fields.items():
        out[name] = (type(field).__name__, str(field.label), field.required, [(str(v), str(label)) for v, label in getattr(field, "choices", [])],
                     dict(field.widget.attrs), {k: str(v) for k, v in field.error_messages.items()},
                     getattr(field, "min_value", None), getattr(field, "max_value", None))
    return out


def _checked(form) -> tuple:
    valid = form.is_valid()
    return valid, {k: v for k, v in form.cleaned_data.items() if k != "request_key"}, {k: [str(e) for e in v] for k, v in form.errors.items()}


def _afresh(make):
    """``make()`` with nothing kept: the fields set up as if for the first time."""
    saved = scoring_forms._FIELD_SETS
    scoring_forms._FIELD_SETS = Kept(512)
    try:
        return make()
    finally:
        scoring_forms._FIELD_SETS = saved


@pytest.mark.parametrize("language", ["en", "ja", "zh-hans"])
@pytest.mark.parametrize("form_class, require_seat", [(TableEntryForm, True), (TableEntryForm, False), (CorrectionForm, True),
                                                      (CorrectionForm, False)])
@pytest.mark.parametrize("data", [ENTRY, {**ENTRY, "discarder": "E", "value_E": "abc"}, {**ENTRY, "entered_by_seat": "X"}, None])
def test_a_form_with_kept_fields_shows_and_checks_what_a_form_set_up_afresh_does(tables, language, form_class, require_seat, data):
    table, players = tables[0]
    event = table.group.session.event
    with translation.override(language):
        def make():
            return form_class(data, event=event, players=players, require_seat=require_seat)

        fresh = _afresh(make)
        make()  # sets up and keeps the fields
        kept = make()  # given the kept ones
        assert all(kept.fields[name] is field for name, field in make().fields.items() if name != "request_key")
        assert _view(kept) == _view(fresh)
        if data is not None:
            assert _checked(kept) == _checked(fresh)


def test_each_table_sees_its_own_players_and_each_form_its_own_key(tables):
    (first, first_players), (second, second_players) = tables
    event = first.group.session.event
    forms = [TableEntryForm(None, event=event, players=players) for players in (first_players, second_players, first_players)]
    names = [[label for _v, label in f.fields["entered_by_seat"].choices] for f in forms]
    assert names[0] == names[2] != names[1]
    assert all(first_players[seat].name in label for seat, label in zip("ESWN", names[0][1:], strict=True))
    assert all(second_players[seat].name in label for seat, label in zip("ESWN", names[1][1:], strict=True))
    keys = [f["request_key"].value() for f in forms]
    assert len(set(keys)) == 3 and all(len(k) == 32 for k in keys)  # a new key in every form shown


def test_the_directors_forms_and_the_players_forms_keep_their_own_seat_choice(tables):
    table, players = tables[0]
    event = table.group.session.event
    for _round in range(2):
        player = TableEntryForm(None, event=event, players=players)
        director = TableEntryForm(None, event=event, players=players, require_seat=False)
        assert player.fields["entered_by_seat"].required and player.fields["entry_pin"].required
        assert not director.fields["entered_by_seat"].required and not director.fields["entry_pin"].required
        assert "entered_by_seat" not in CorrectionForm(None, event=event, players=players, require_seat=False).fields
        assert "entered_by_seat" in TableEntryForm(None, event=event, players=players, require_seat=False).fields


def test_a_language_change_between_two_forms_gives_the_second_its_own_words(tables):
    table, players = tables[0]
    event = table.group.session.event
    labels = {}
    for language in ("en", "ja", "en"):
        with translation.override(language):
            form = TableEntryForm(None, event=event, players=players)
            labels.setdefault(language, []).append(str(form.fields["entered_by_seat"].choices[0][1]))
    assert labels["en"][0] == labels["en"][1] == "choose your seat"
    assert labels["ja"][0] != "choose your seat"


def test_no_more_forms_are_kept_than_the_size_and_the_latest_are_the_ones_kept():
    sets = Kept(3)
    for n in range(5):
        sets.put((n,), (None, {}))
    assert sets.get((0,)) is None and sets.get((1,)) is None
    assert sets.get((2,)) is not None and sets.get((4,)) is not None
