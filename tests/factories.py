"""Helpers shared by the test modules: log a test client in as a table's scorer the way a phone
does (a POST of the table's code to the table login form; a GET never logs in), and say who is
entering a result the way a player does (their seat and their own PIN)."""

from __future__ import annotations

from django.urls import reverse


def login_as_table(client, table, *, event_scoped: bool = False, code: str | None = None, **extra):
    """POST ``table``'s login code (or ``code``) to the table login form and return the response
    (a redirect to the table's page when the code was taken). ``event_scoped``: use the table's
    event's own login page. ``extra``: request headers, e.g. ``REMOTE_ADDR``."""
    if event_scoped:
        url = reverse("event-table-login", args=[table.group.session.event.slug])
    else:
        url = reverse("table-login")
    return client.post(url, {"code": table.login_code if code is None else code}, **extra)


def entering(table, seat: str) -> dict:
    """The form data that says the player at ``seat`` of ``table`` is entering: the seat and that
    player's own PIN (``entered_by_seat``, ``entry_pin``), for a POST to the table page or the
    entry form."""
    return {"entered_by_seat": seat, "entry_pin": table.seats.select_related("player").get(seat=seat).player.pin}


def login_as_table_in_browser(page, url: str | None = None, code: str | None = None) -> None:
    """In a Playwright ``page``, log in as a table's scorer the way a phone does: open ``url`` (a
    login link holding the code, as the score sheet's QR code gives, or the bare login form; None:
    the page already shows it), type ``code`` when given, press the page's one button ("Log in as
    this table's scorer" / "Open my table") and wait for the page it leads to."""
    if url is not None:
        page.goto(url)
    if code is not None:
        page.fill("#code", code)
    with page.expect_navigation():
        page.click("main form[method=post] button[type=submit]")


def say_who_is_entering(page, seat: str, pin: str) -> None:
    """On the table page in a Playwright ``page``: choose ``seat`` as the one entering and type
    that player's own ``pin`` ("Your PIN (the player entering)")."""
    page.select_option("#entered_by_seat", seat)
    page.fill("#entry_pin", pin)


def fill_discard_win(page, set_no: int, winner: str, discarder: str, fan: int) -> None:
    """On the table page in a Playwright ``page``: choose set ``set_no`` and enter a discard win
    by its outcome (``winner`` won on ``discarder``'s discard for ``fan``); Save is left to the test."""
    page.select_option("#set_no", str(set_no))
    page.check("input[name=mode][value=outcome]")
    page.select_option("#kind", "discard")
    page.select_option("#winner", winner)
    page.select_option("#discarder", discarder)
    page.fill("#fan", str(fan))


def confirm_with_pin(page, pin: str) -> None:
    """Type ``pin`` into the first result waiting for confirmation on the table page and press Confirm."""
    card = page.locator("#pending form").first
    card.locator("input[name=pin]").fill(pin)
    with page.expect_navigation():
        card.get_by_role("button", name="Confirm").click()


def standings_rows(page) -> list[list[str]]:
    """The standings page's table as text: one list of cell texts per row (rank, name, points,
    score total, sets)."""
    rows = page.locator("#standings tbody tr")
    return [[cell.strip() for cell in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())]
