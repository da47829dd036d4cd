"""``python manage.py par EXPORT.json`` (docs/export.md, "Par"): every set of an export analysed,
printed seat by seat, written back into the export's own format, and kept by an import."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from factories import prepared_event

from scoring import par as par_core
from tournament.exchange import export_event, import_event

pytestmark = pytest.mark.django_db


def test_the_command_analyses_every_set_of_an_export_and_an_import_keeps_it(tmp_path, capsys):
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name="Par command", slug="par-command")
    source = tmp_path / "event.json"
    source.write_text(json.dumps(export_event(event, include_secret=True)))
    out = tmp_path / "with-par.json"
    call_command("par", str(source), "--json", str(out))
    printed = capsys.readouterr().out
    walls = {(w.session_number, w.set_no): w.piles for w in event.wall_sets.all()}
    assert f"{len(walls)} wall sets analysed (mcr-duplicate, mcr values)" in printed
    written = json.loads(out.read_text())
    for wall in written["walls"]["sets"]:
        expected = par_core.set_par(event.get_ruleset(), walls[(wall["session"], wall["set"])],
                                    prevalent_wind=par_core.prevalent_of(wall["set"], 4))
        assert wall["par"] == expected.as_dict()
        east = expected.seat("E")
        assert f"set {wall['session']}-{wall['set']:02d}" in printed
        if east.par is not None:
            assert f"E  shanten {east.shanten}  par D{east.par.draw} {east.par.value.value} fan {east.par.score:+d}  {east.par.hand}" in printed
    event.delete()  # an import makes the event again (its uid must be new to the database)
    copy = import_event(written, slug="par-command-copy")
    stored = {(w.session_number, w.set_no): w.par for w in copy.wall_sets.all()}
    assert stored == {(w["session"], w["set"]): w["par"] for w in written["walls"]["sets"]}
    again = export_event(copy)
    assert [w["par"] for w in again["walls"]["sets"]] == [w["par"] for w in written["walls"]["sets"]]


def test_a_file_without_walls_is_refused_naming_the_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"ruleset": {"code": "x"}}))
    with pytest.raises(CommandError, match="ruleset"):
        call_command("par", str(bad))


def test_a_missing_file_is_a_clear_error_not_a_traceback(tmp_path):
    with pytest.raises(CommandError, match="export: .*missing.json is not a readable"):
        call_command("par", str(tmp_path / "missing.json"))


def test_the_fixed_honba_travel_with_the_export_and_a_bad_par_or_counter_is_refused(tmp_path):
    from scoring.actions.counters import fix_counters
    from tournament.exchange import ExchangeError

    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name="Counters travel", slug="counters-travel", ruleset_code="riichi-duplicate")
    fix_counters(event, {"1-2": {"honba": 2}}, actor="td")
    data = export_event(event, include_secret=True)
    assert data["event"]["fixed_counters"] == {"1-2": {"honba": 2}}
    event.delete()
    for bad, field in (({"1-2": {"honba": -1}}, "event.fixed_counters"), ({"9-2": {"honba": 1}}, "event.fixed_counters")):
        with pytest.raises(ExchangeError, match=field):
            import_event({**data, "event": {**data["event"], "fixed_counters": bad}})
    broken = {**data, "walls": {**data["walls"], "sets": [{**data["walls"]["sets"][0], "par": {"seats": "E"}}]}}
    with pytest.raises(ExchangeError, match=r"walls\.sets\[0\]\.par"):
        import_event(broken)
    assert import_event(data).fixed_counters == {"1-2": {"honba": 2}}


def test_a_wall_set_that_is_no_wall_set_is_named(tmp_path):
    roster = "team,player\n" + "".join(f"Team {t},{t}{m}\n" for t in "ABCD" for m in range(4))
    event = prepared_event(roster, name="Par bad set", slug="par-bad-set")
    data = export_event(event)
    data["walls"]["sets"][1] = "not a wall"
    path = tmp_path / "bad-set.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError, match=r"walls\.sets\[1\]"):
        call_command("par", str(path))


def test_the_command_names_a_double_yakuman_and_an_outdated_par_travels_no_further(tmp_path, capsys, director):
    """East's Suu Ankou Tanki (tests/test_par_pages.py, ``riichi_cup``) prints as a double yakuman,
    not as its 26 han; a par stored by the first version of the analysis (no ``version``) is left
    out of an export, and an import drops one, so it is computed again (docs/export.md, "Par")."""
    from test_par_pages import riichi_cup

    from walls.models import WallSet

    event = riichi_cup("par-command-yakuman", director)
    source = tmp_path / "event.json"
    source.write_text(json.dumps(export_event(event, include_secret=True)))
    out = tmp_path / "with-par.json"
    call_command("par", str(source), "--session", "1", "--json", str(out))
    printed = capsys.readouterr().out
    east = next(line for line in printed.splitlines()[1:] if line.startswith("  E "))
    assert "par D2 double yakuman +96000  111444m 222p 333s 5z +5z" in east and "26" not in east

    written = json.loads(out.read_text())
    first = written["walls"]["sets"][0]
    assert (first["session"], first["set"], first["par"]["version"]) == (1, 1, par_core.PAR_VERSION)
    outdated = {key: value for key, value in first["par"].items() if key != "version"}
    WallSet.objects.filter(event=event, session_number=1, set_no=1).update(par=outdated)
    assert "par" not in export_event(event)["walls"]["sets"][0]
    event.delete()
    written["walls"]["sets"][0]["par"] = outdated
    copy = import_event(written, slug="par-command-yakuman-copy")
    stored = {(w.session_number, w.set_no): w.par for w in copy.wall_sets.all()}
    assert stored[(1, 1)] is None and stored[(1, 2)] == written["walls"]["sets"][1]["par"]
