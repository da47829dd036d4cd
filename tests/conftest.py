"""Shared fixtures. Celery runs eagerly in tests unless a test is marked ``services`` and a real
worker was started for the run (``DMJ_REAL_WORKER=1``, as .ci/run does)."""

import os
import random

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Property tests check invariants, not speed: no per-example deadline on a shared, busy machine.
hypothesis_settings.register_profile("dmj", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("dmj")


def pytest_configure(config):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The test database on SQLite is an in-memory, shared-cache one, where a transaction that
    takes the write lock at BEGIN (``transaction_mode=IMMEDIATE``, set in tournament/settings.py
    for the database file of real events) makes other threads fail at once with "database
    table is locked" instead of waiting: the live-server browser tests would. So the in-memory
    test database begins transactions the default way; tests/test_embedded_concurrency.py runs
    the real setting on a database file in a subprocess."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3"):
        default.get("OPTIONS", {}).pop("transaction_mode", None)
        default.get("OPTIONS", {}).pop("init_command", None)


@pytest.fixture(autouse=True)
def _celery_mode(request, tmp_path):
    if not request.config.pluginmanager.hasplugin("django"):
        yield  # pure-module run (-p no:django): nothing to configure
        return
    from tournament.celery import app

    settings = request.getfixturevalue("settings")

    real = request.node.get_closest_marker("services") is not None
    if real and not os.environ.get("DMJ_REAL_WORKER"):
        pytest.skip("needs a real Celery worker and broker: .ci/run starts them (DMJ_REAL_WORKER=1)")
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = not real
    app.conf.task_eager_propagates = True
    # Users made by fixtures need no slow password hashing in tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    if not real:
        settings.MEDIA_ROOT = str(tmp_path / "media")
    # Pages a release changes are rebuilt at once in tests, which read them right after;
    # tests/test_stale_pages.py checks the production default.
    settings.PUBLIC_PAGE_STALE_SECONDS = 0
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _print_in_request(request):
    """Print jobs render in the request in tests (``PRINT_IN_THREAD`` off), so a test reads the
    file it asked for; tests of the background thread turn it on again."""
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").PRINT_IN_THREAD = False
    yield


# --- people: the one set of role fixtures the test modules share ------------------------------------
# A role holds on an event only once an EventRole names it (``team_event`` and
# factories.prepared_event(director=...) give ``director`` its role); the users themselves are
# plain accounts, their actor name their username.


@pytest.fixture
def director(db, django_user_model):
    """The user "director" (password "pw-director-1"), meant to hold the director role."""
    return django_user_model.objects.create_user("director", password="pw-director-1")


@pytest.fixture
def director_client(director):
    """A test client logged in (a session login) as ``director``."""
    from factories import client_for

    return client_for(director)


def _build_team_event():
    from factories import demo_roster, prepared_event

    return prepared_event(demo_roster(), name="Test Cup", slug="test-cup", sessions=5)


@pytest.fixture(scope="session")
def _team_event_snapshot(django_db_setup, django_db_blocker):
    """``team_event``'s rows, built once per test session (:class:`factories.Snapshot`)."""
    from factories import Snapshot

    return Snapshot.capture(django_db_blocker, lambda: _build_team_event().pk)


@pytest.fixture
def team_event(db, director, _team_event_snapshot):
    """A seated 16-team MCR duplicate event with session 1's walls, the director holding the role.
    Its rows are built once per test session and written into each test's database."""
    from factories import event_from

    return event_from(_team_event_snapshot, _build_team_event, director)


@pytest.fixture
def staggered_event(db):
    """32 teams in 4 rooms of 8 tables, session 1 prepared: 8 groups, staggered, two groups to a
    copy (docs/seating.md, "Rooms")."""
    from factories import team_roster

    from tournament.rooms import quick_rooms
    from tournament.services import create_event, import_roster, prepare_session

    event = create_event(name="Stagger Cup", slug="stagger-cup", sessions=2, entrant_policy="substitutes", base_url="http://testserver/")
    import_roster(event, team_roster(32))
    quick_rooms(event, 4, 8, actor="director")
    prepare_session(event, 1)
    return event


@pytest.fixture
def table(team_event):
    """``team_event``'s table 1 (session 1)."""
    from factories import first_table

    return first_table(team_event)


@pytest.fixture
def first_set(table):
    """The first set ``table`` plays."""
    from factories import first_set as first_set_of

    return first_set_of(table)


@pytest.fixture
def organiser(client, django_user_model):
    """A staff user "org" (password "pw-org-1"; staff may create events), logged into ``client``."""
    user = django_user_model.objects.create_user("org", password="pw-org-1", is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def scorer_of_table_1(team_event, table, django_user_model):
    """The user "scorer-t1" holding ``team_event``'s scorer role bound to ``table`` (table 1) only."""
    from tournament.models import EventRole

    user = django_user_model.objects.create_user("scorer-t1", password="pw-scorer-1")
    EventRole.objects.create(event=team_event, user=user, role=EventRole.Role.SCORER).tables.add(table)
    return user


@pytest.fixture
def table_client(client, table):
    """``client`` logged in with ``table``'s code, as a phone at the table is (no user account)."""
    from factories import login_as_table

    assert login_as_table(client, table).status_code == 302
    return client


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Each test starts with an empty cache: the table-login throttle and the public download
    limit count per client address there (every test client is 127.0.0.1), so counts must not
    carry from one test into the next."""
    if request.config.pluginmanager.hasplugin("django"):
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _no_language_left_active(request):
    """Each test starts and ends in the default language: a request through the test client with
    Accept-Language activates that language in the thread (LocaleMiddleware never deactivates it),
    which would otherwise leak into the next test's messages."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture
def half_played(db, director):
    """Session 1 played everywhere; session 2 prepared and played by group 1 only: its sets are
    scored in group 1 but not released (the cache's secrecy tests)."""
    from scoring.models import SetScore
    from tests.factories import play_slots, played_event
    from tournament.models import EventRole
    from tournament.services import prepare_session

    event = played_event(8, 1, slug="half-played")
    event.sessions_planned = 2
    event.save(update_fields=["sessions_planned"])
    prepare_session(event, 2)
    play_slots(event, random.Random(3), session=2, groups=[1])
    EventRole.objects.create(event=event, user=director, role=EventRole.Role.DIRECTOR)
    assert SetScore.objects.filter(event=event, session_number=2).exists()
    return event
