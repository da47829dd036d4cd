"""Set identifiers, their check digit and the QR payload printed on set labels.

A physical wall set is identified by (event slug, session, set number). The human-readable *set
code* is ``"<session>-<set:02>-<check>"`` (e.g. ``"1-07-3"``); the check digit is Luhn mod 10
over the decimal digits of ``session`` and ``set`` (set zero-padded to two digits), so a swapped
or mistyped digit on a sticker or in manual entry is caught.

The QR payload is ``"DMJ1|<event slug>|<session>|<set>|<check>"``; when the event has a public
address the payload is instead the entry URL ``<base>/entry/scan/<payload-encoded>``, which the
entry page decodes with :func:`parse_payload` as well.

Each wall sticker's QR code is the URL of its slot, ``<BASE>/W/<event key>/<code>/<where>`` with
``where`` the seat and slot (``E-D21``) or the slot alone for a shared pile (``X5``):
:meth:`SetId.slot_url`, read back by :func:`parse_slot_key`. It names the set, seat and slot and
never a tile (a sticker sits on a tile's back, which everyone sees); only staff's phones are shown
what tile goes there (docs/staff-guide.md, "Rebuilding a set by scan").

That URL is short and written in QR alphanumeric characters (digits, upper-case letters and
``$%*+-./:``, 5.5 bits a character against 8 in byte mode): the scheme and host upper-cased
(:func:`qr_address`; both are case-insensitive), ``W`` and the event's number instead of its slug.
So a sticker code stays at QR version 4 (33 modules, error correction M: up to 90 such
characters) with any public address of up to 60 characters, and its modules stay at 0.4 mm or
more on the smallest tile (docs/printing.md, "Sticker codes").

A reserve wall drawn for a set (docs/walls.md, "Reserve walls") has a code of its own,
``"<session>-<set:02>R<reserve>-<check>"`` (e.g. ``"1-07R1-4"``), with the check digit over the
digits of session, set (two digits) and reserve number, and the payload
``"DMJ1|<event slug>|<session>|<set>|<check>|R<reserve>"``: a sixth field, so readers of the
five-field payload of a set are unchanged.

Standalone: no Django import, so printing and third-party tools can use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, unquote

PAYLOAD_PREFIX = "DMJ1"


class SetCodeError(ValueError):
    """A set code or QR payload that cannot be read; the message says which part and why."""


def luhn_digit(digits: str) -> int:
    """Return the Luhn check digit (0-9) for a string of decimal digits.

    Raises SetCodeError if ``digits`` is empty or holds a non-digit.
    """
    if not digits or not digits.isdigit():
        raise SetCodeError(f"check digit needs decimal digits, got {digits!r}")
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return (10 - total % 10) % 10


@dataclass(frozen=True)
class SetId:
    """One wall set of an event: ``event`` slug, 1-based ``session`` and ``set_no``; ``reserve``
    is 0 for the set as prepared and ``r`` for its reserve wall ``R<r>``."""

    event: str
    session: int
    set_no: int
    reserve: int = 0

    def __post_init__(self) -> None:
        if self.session < 1:
            raise SetCodeError(f"session must be 1 or more, got {self.session}")
        if not 1 <= self.set_no <= 99:
            raise SetCodeError(f"set number must be 1 to 99, got {self.set_no}")
        if self.reserve < 0:
            raise SetCodeError(f"reserve number must be 0 (the set itself) or more, got {self.reserve}")
        if "|" in self.event or not self.event:
            raise SetCodeError(f"event slug must be non-empty and without '|', got {self.event!r}")

    @property
    def check(self) -> int:
        """The Luhn check digit of this set (of its reserve wall: the reserve number's digits too)."""
        return luhn_digit(f"{self.session}{self.set_no:02d}{self.reserve or ''}")

    @property
    def reserve_label(self) -> str:
        """``"R1"`` for reserve wall 1, ``""`` for the set as prepared."""
        return f"R{self.reserve}" if self.reserve else ""

    @property
    def set_code(self) -> str:
        """The set's own code without the check digit, ``"1-07"``: what a reserve wall replaces."""
        return f"{self.session}-{self.set_no:02d}"

    @property
    def code(self) -> str:
        """Human-readable code printed on stickers and labels, e.g. ``"1-07-3"``; a reserve
        wall's ``"1-07R1-4"``."""
        return f"{self.set_code}{self.reserve_label}-{self.check}"

    @property
    def payload(self) -> str:
        """The QR payload: ``DMJ1|slug|session|set|check``, a reserve wall's with ``|R<r>`` after it."""
        base = f"{PAYLOAD_PREFIX}|{self.event}|{self.session}|{self.set_no}|{self.check}"
        return f"{base}|{self.reserve_label}" if self.reserve else base

    def url(self, base_url: str) -> str:
        """The entry URL that a phone opens when it scans the label (``base_url`` without slash)."""
        return f"{base_url.rstrip('/')}/entry/scan/{quote(self.payload, safe='')}"

    def slot_url(self, base_url: str, seat: str | None, label: str, event_key: str = "") -> str:
        """The URL a wall sticker's QR code holds. With ``event_key`` (the event's number) the short
        form ``<BASE>/W/<key>/<code>/<seat>-<label>`` (``HTTPS://MJ.EXAMPLE.ORG/W/12/1-07-3/E-D21``,
        the base through :func:`qr_address`), else the form naming the slug,
        ``<base>/w/<slug>/<code>/<seat>-<label>`` (stickers printed by earlier versions). A shared
        pile's slot is the label alone (``X5``). Names the slot, never its tile."""
        if event_key:
            return f"{qr_address(base_url)}/W/{event_key}/{self.code}/{slot_key(seat, label)}"
        return f"{base_url.rstrip('/')}/w/{quote(self.event, safe='')}/{self.code}/{slot_key(seat, label)}"


def qr_address(base_url: str) -> str:
    """``base_url`` without its trailing slash, scheme and host (with the port) upper-cased, so a
    QR code writes them in alphanumeric mode: ``https://mj.example.org:8443/club`` →
    ``HTTPS://MJ.EXAMPLE.ORG:8443/club`` (a path is case-sensitive and kept as typed)."""
    base = base_url.strip().rstrip("/")
    scheme, sep, rest = base.partition("://")
    if not sep:
        return base
    host, slash, path = rest.partition("/")
    return f"{scheme.upper()}://{host.upper()}{slash}{path}"


def set_code(session: int, set_no: int, reserve: int = 0) -> str:
    """The code of set ``set_no`` of ``session`` as every sheet, label and page names it:
    ``set_code(1, 7)`` → ``"1-07-3"`` (a reserve wall's ``"1-07R1-4"``). Raises SetCodeError for
    numbers out of range, as :class:`SetId` does."""
    return SetId("-", session, set_no, reserve).code


def slot_key(seat: str | None, label: str) -> str:
    """A slot in a sticker's URL: ``"E-D21"`` for a seat's pile, ``"X5"`` for a shared one."""
    return f"{seat}-{label}" if seat else label


def parse_code(event: str, code: str) -> SetId:
    """A typed or printed set code (``"1-07-3"``, a reserve wall's ``"1-07R1-4"``) of ``event``
    back into a :class:`SetId`. Raises SetCodeError naming the part that is wrong (shape, check
    digit)."""
    text = code.strip().upper()
    head, _, check = text.rpartition("-")
    session, _, set_part = head.partition("-")
    set_no, marker, reserve = set_part.partition("R")
    numbers = (session, set_no, check) + ((reserve,) if marker else ())
    if not all(n.isascii() and n.isdigit() for n in numbers) or (marker and int(reserve) < 1):
        raise SetCodeError(f"a set code reads like 1-07-3 (session, set, check digit), got {code!r}")
    set_id = SetId(event, int(session), int(set_no), int(reserve or 0))
    if set_id.check != int(check):
        raise SetCodeError(f"check digit {check} does not match set {set_id.code}: re-scan or type the set number")
    return set_id


def parse_slot_key(key: str) -> tuple[str | None, str]:
    """``"E-D21"`` → ``("E", "D21")``; ``"X5"`` → ``(None, "X5")`` (any case). Raises SetCodeError for a
    key that is neither."""
    seat, sep, label = key.strip().upper().rpartition("-")
    if (sep and not seat) or not label.isascii() or not label[:1].isalpha() or not label[1:].isdigit():
        raise SetCodeError(f"a sticker's slot reads like E-D21 (seat, slot) or X5, got {key!r}")
    return (seat or None), label


def parse_payload(text: str) -> SetId:
    """Read a scanned QR payload (bare payload or entry URL) back into a :class:`SetId`: a set's
    five fields, or a reserve wall's six (``...|check|R1``).

    Raises SetCodeError naming the part that is wrong (prefix, numbers, reserve, check digit).
    """
    text = text.strip()
    if "/entry/scan/" in text:
        text = unquote(text.rsplit("/entry/scan/", 1)[1].strip("/"))
    parts = text.split("|")
    if len(parts) not in (5, 6) or parts[0] != PAYLOAD_PREFIX:
        raise SetCodeError(f"not a set label: expected '{PAYLOAD_PREFIX}|event|session|set|check', got {text!r}")
    _, event, session, set_no, check = parts[:5]
    if not all(n.isascii() and n.isdigit() for n in (session, set_no, check)):
        raise SetCodeError(f"session, set and check digit must be numbers in {text!r}")
    reserve = 0
    if len(parts) == 6:
        label = parts[5]
        if not (label[:1] == "R" and label[1:].isascii() and label[1:].isdigit() and int(label[1:]) >= 1):
            raise SetCodeError(f"a reserve wall's label ends in R1, R2...; got {label!r} in {text!r}")
        reserve = int(label[1:])
    set_id = SetId(event, int(session), int(set_no), reserve)
    if set_id.check != int(check):
        raise SetCodeError(f"check digit {check} does not match set {set_id.code}: re-scan or type the set number")
    return set_id

