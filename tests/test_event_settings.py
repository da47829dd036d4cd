"""docs/director-guide.md, "2. Settings": the event settings page (/e/<slug>/director/settings/) and its service
(tournament.event_setup.update_settings): what a director can change, what is frozen once walls
exist or session 1 is seated (and the page saying so), the audit entry of a change, and nothing
written when nothing changed."""

import pytest
from django.urls import reverse

from scoring.models import ConversionTable
from tournament.event_setup import update_settings
from tournament.models import AuditEntry, Event
from tournament.seating import SetupError, seat_session
from tournament.services import create_event, import_roster, prepare_session
from walls.rulesets import get_ruleset

from factories import team_roster

pytestmark = pytest.mark.django_db

SITE = "http://testserver/"


@pytest.fixture
def event(director):
    """A published team event of 4 teams (one group), not seated, directed by ``director``."""
    event = create_event(name="Autumn Cup", slug="autumn", sessions=2)
    import_roster(event, team_roster(4))
    event.roles.create(user=director, role="director")
    return event


@pytest.fixture
def page(client, director, event):
    client.force_login(director)
    return reverse("event-settings", args=[event.slug])


def form_data(client, url) -> dict:
    """The settings form as the page fills it in (every enabled field's current value), the way a
    browser posts it unchanged."""
    form = client.get(url).context["form"]
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if name == "scorer_corrections":
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


def settings_entries(event):
    return list(AuditEntry.objects.filter(event=event, action="settings-changed").order_by("id"))


def test_the_page_offers_every_setting_with_its_label(client, page):
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    for element in ("id_name", "id_base_url", "id_sessions", "id_rounds", "id_entrant_policy", "id_scorer_corrections",
                    "id_tile_size", "id_tile_custom", "id_default_label_stock", "id_sheet_language", "id_tie_breaks"):
        assert f'id="{element}"' in html, element
    assert "Public address" in html and "Tile size" in html and "Competition tiles 25 × 34 mm" in html
    assert "Save settings" in html
    assert "Delete the event…" in html


def test_a_blank_public_address_is_offered_as_the_address_of_the_site(client, page, event):
    response = client.get(page)
    assert response.context["form"]["base_url"].value() == SITE
    assert "QR codes and score sheets link there" in response.content.decode()
    client.post(page, form_data(client, page))
    event.refresh_from_db()
    assert event.base_url == SITE


def test_changes_are_stored_and_audited_old_and_new(client, page, event):
    data = form_data(client, page)
    data.update(name="Autumn Cup 2026", base_url="https://mahjong.example.org/", sessions=3, sheet_language="ja",
                default_label_stock="letter-strips", entrant_policy="substitutes", tile_size="custom",
                tile_custom="24.5 x 33")
    data.pop("scorer_corrections", None)  # unticked
    response = client.post(page, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.base_url, event.sessions_planned, event.sheet_language, event.default_label_stock,
            event.entrant_policy, event.scorer_corrections, event.tile_size) == (
        "Autumn Cup 2026", "https://mahjong.example.org/", 3, "ja", "letter-strips", "substitutes", False, "24.5x33")
    [entry] = settings_entries(event)
    assert entry.actor == "director"
    assert entry.detail == {
        "name": ["Autumn Cup", "Autumn Cup 2026"], "base_url": ["", "https://mahjong.example.org/"],
        "sessions_planned": [2, 3], "sheet_language": ["en", "ja"], "default_label_stock": ["", "letter-strips"],
        "tile_size": ["", "24.5x33"],
        "entrant_policy": ["as-is", "substitutes"], "scorer_corrections": [True, False],
    }


def test_nothing_changed_writes_nothing(client, page, event):
    event.base_url = "https://mahjong.example.org/"
    event.save()
    response = client.post(page, form_data(client, page), follow=True)
    assert "Nothing changed." in response.content.decode()
    assert settings_entries(event) == []
    update_settings(event, actor="director", name="Autumn Cup", sessions_planned=2, tie_breaks=[])
    assert settings_entries(event) == []


def test_hands_per_session_follow_the_rounds(client, page, event):
    seats = len(get_ruleset("mcr-duplicate").seats)
    data = form_data(client, page)
    data["rounds"] = 2
    client.post(page, data)
    event.refresh_from_db()
    assert event.get_ruleset().rounds == 2
    assert event.get_ruleset().hands_per_session == 2 * seats
    assert settings_entries(event)[-1].detail["rounds"] == [get_ruleset("mcr-duplicate").rounds, 2]
    prepare_session(event, 1)
    assert event.wall_sets.filter(session_number=1).count() == 2 * seats


def test_rounds_below_one_are_refused(event):
    with pytest.raises(SetupError) as refused:
        update_settings(event, actor="director", rounds=0)
    assert refused.value.field == "rounds"


def test_a_new_rule_set_and_conversion_method_before_walls(event):
    update_settings(event, actor="director", ruleset="riichi", conversion="mcr-mp")
    event.refresh_from_db()
    assert event.ruleset_code == "riichi"
    assert event.get_ruleset() == get_ruleset("riichi")
    assert ConversionTable.objects.current(event).code == "mcr-mp"
    assert settings_entries(event)[-1].detail == {"ruleset": ["mcr-duplicate", "riichi"],
                                                  "conversion": ["wbf-imp", "mcr-mp"]}


@pytest.mark.parametrize("change", [{"ruleset": "riichi"}, {"rounds": 1}, {"conversion": "mcr-mp"},
                                    {"sessions_planned": 5}, {"entrant_policy": "substitutes"}])
def test_frozen_once_walls_exist(event, change):
    prepare_session(event, 1)
    before = Event.objects.get(pk=event.pk)
    with pytest.raises(SetupError) as refused:
        update_settings(event, actor="director", **change)
    (field,) = change
    assert refused.value.field == field
    assert refused.value.message  # says why
    after = Event.objects.get(pk=event.pk)
    assert (after.ruleset, after.sessions_planned, after.entrant_policy) == (
        before.ruleset, before.sessions_planned, before.entrant_policy)
    assert ConversionTable.objects.current(event).code == "wbf-imp"
    assert settings_entries(event) == []


def test_seated_without_walls_freezes_sessions_and_policy_only(event):
    seat_session(event, 1)
    assert not event.wall_sets.exists()
    for change in ({"sessions_planned": 4}, {"entrant_policy": "sit-out-datum"}):
        with pytest.raises(SetupError) as refused:
            update_settings(event, actor="director", **change)
        assert "Session 1 is seated" in refused.value.message
    update_settings(event, actor="director", conversion="mcr-mp")
    assert ConversionTable.objects.current(event).code == "mcr-mp"


def test_the_page_shows_frozen_fields_read_only_with_the_reason(client, page, event):
    prepare_session(event, 1)
    response = client.get(page)
    html = response.content.decode()
    form = response.context["form"]
    for name in ("ruleset", "rounds", "conversion", "sessions", "entrant_policy"):
        assert form.fields[name].disabled, name
        assert f'id="frozen-{name}"' in html
    assert "Walls are generated" in html
    assert "Session 1 is seated" in html
    # a tampered post of a frozen field is ignored; the other settings are still saved
    data = form_data(client, page)
    data.update(rounds=1, sessions=9, name="Renamed")
    assert client.post(page, data).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.sessions_planned, event.get_ruleset().rounds) == (
        "Renamed", 2, get_ruleset("mcr-duplicate").rounds)


def test_the_name_is_not_frozen_by_play(event):
    prepare_session(event, 1)
    update_settings(event, actor="director", name="Renamed", sheet_language="zh", scorer_corrections=False,
                    fouled_min_tables=3, fouled_adjusted_points=-2)
    event.refresh_from_db()
    assert (event.name, event.sheet_language, event.scorer_corrections, event.fouled_min_tables,
            event.fouled_adjusted_points) == ("Renamed", "zh-hans", False, 3, -2)  # "zh" as the site spells it


@pytest.mark.parametrize(("change", "field"), [
    ({"name": "  "}, "name"), ({"base_url": "not an address"}, "base_url"), ({"sessions_planned": 0}, "sessions_planned"),
    ({"sheet_language": "fr"}, "sheet_language"), ({"default_label_stock": "a5-99"}, "default_label_stock"),
    ({"tie_breaks": ["coin_toss"]}, "tie_breaks"), ({"fouled_min_tables": 0}, "fouled_min_tables"),
    ({"entrant_policy": "whatever"}, "entrant_policy"), ({"ruleset": "no-such-rules"}, "ruleset"),
    ({"conversion": "no-such-table"}, "conversion"),
])
def test_unusable_values_are_refused_naming_the_field(event, change, field):
    with pytest.raises(SetupError) as refused:
        update_settings(event, actor="director", **change)
    assert refused.value.field == field
    assert settings_entries(event) == []


def test_tie_breaks_are_stored_in_the_order_of_their_numbers(client, page, event):
    data = form_data(client, page)
    data.update(tie_breaks=["positive_sets", "best_set"], rank_best_set="1", rank_positive_sets="2")
    client.post(page, data)
    event.refresh_from_db()
    assert event.tie_breaks == ["best_set", "positive_sets"]
    html = client.get(page).content.decode()
    assert html.index('value="best_set"') < html.index('value="positive_sets"') < html.index('value="score_total"')


def test_an_error_is_shown_on_its_field_and_nothing_is_stored(client, page, event):
    data = form_data(client, page)
    data.update(base_url="not an address", name="Kept?")
    response = client.post(page, data)
    assert response.status_code == 400
    assert response.context["form"].errors["base_url"]
    assert 'id="form-errors"' in response.content.decode()
    event.refresh_from_db()
    assert event.name == "Autumn Cup"


def test_an_archived_event_keeps_its_settings(event):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.ARCHIVED)
    with pytest.raises(SetupError) as refused:
        update_settings(event, actor="director", name="Renamed")
    assert refused.value.field == "status"


def test_only_the_director_opens_the_settings(client, django_user_model, event):
    url = reverse("event-settings", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    staff = django_user_model.objects.create_user("staffer")
    event.roles.create(user=staff, role="staff")
    client.force_login(staff)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "Hijacked"}).status_code == 403
    event.refresh_from_db()
    assert event.name == "Autumn Cup"


def test_a_label_stock_larger_than_the_tiles_is_refused_on_the_page_naming_it(client, page, event):
    data = form_data(client, page)
    data.update(default_label_stock="a4-70")
    response = client.post(page, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'href="#id_default_label_stock"' in html and "a4-70" in html and "25 × 34 mm" in html
    event.refresh_from_db()
    assert event.default_label_stock == ""
    data.update(tile_size="custom", tile_custom="40 x 45", default_label_stock="a4-65")  # bigger tiles: it fits
    assert client.post(page, data).status_code == 302
    event.refresh_from_db()
    assert (event.tile_size, event.default_label_stock) == ("40x45", "a4-65")
    assert client.get(page).context["form"]["tile_custom"].value() == "40 x 45"
