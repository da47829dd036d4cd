"""The result entry form: one field per seat, built from the event's rule set."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.payments import PAYMENT_RULES
from tournament.models import Table

ENTRY_PIN_LABEL = _("Your PIN (the player entering)")
ENTRY_PIN_REQUIRED = _("type your own 4-digit PIN: it shows that you, the player entering, sit at that seat.")
SEAT_FOR_PIN = _("choose who is entering: the PIN typed is checked against the player at that seat")


def entry_pin_field() -> forms.CharField:
    """The entering player's own PIN: masked (the opponents sit around the phone), a number pad,
    never filled in by the browser nor sent back into the page."""
    return forms.CharField(
        label=ENTRY_PIN_LABEL, required=False, max_length=4, error_messages={"required": ENTRY_PIN_REQUIRED},
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": 4}),
    )


def _check_pin_has_seat(form) -> None:
    """A PIN typed without the seat it belongs to is refused at the seat field."""
    if form.cleaned_data.get("entry_pin") and not form.cleaned_data.get("entered_by_seat") and "entered_by_seat" not in form.errors:
        form.add_error("entered_by_seat", SEAT_FOR_PIN)


class ResultForm(forms.Form):
    """Score changes of one table on one set, and the seat of the player entering with that
    player's own PIN (both required but for the director: the PIN shows the seat is theirs, and
    that seat's PIN cannot confirm the result). Errors from
    :class:`scoring.services.ResultError` are attached to the field they name (``changes.E`` →
    ``seat_E``)."""

    table = forms.ModelChoiceField(queryset=Table.objects.none(), label=_("Table"))
    set_no = forms.IntegerField(min_value=1, max_value=99, label=_("Set"))
    entered_by_seat = forms.ChoiceField(label=_("Who is entering? (seat)"), required=False)
    entry_pin = entry_pin_field()

    def __init__(self, *args, event, tables=None, require_seat: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.seats = tuple(event.get_ruleset().seats)
        self.fields["table"].queryset = tables if tables is not None else Table.objects.filter(group__session__event=event)
        entering = self.fields["entered_by_seat"]
        entering.required = require_seat
        entering.choices = [("", _("choose your seat") if require_seat else _("the director (no seat)"))] + [(s, s) for s in self.seats]
        entering.error_messages["required"] = _("choose who is entering: a player of another seat confirms the result with their PIN.")
        self.fields["entry_pin"].required = require_seat
        for seat in self.seats:
            self.fields[f"seat_{seat}"] = forms.IntegerField(
                label=_("Seat %(seat)s score change") % {"seat": seat},
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
            )

    def clean(self):
        data = super().clean()
        _check_pin_has_seat(self)
        return data

    def changes(self) -> dict[str, int]:
        return {seat: self.cleaned_data[f"seat_{seat}"] for seat in self.seats}

    def add_result_error(self, error) -> None:
        """Attach a ResultError to the form field it names."""
        field = error.field
        if field.startswith("changes."):
            name = f"seat_{field.split('.', 1)[1]}"
            self.add_error(name if name in self.fields else None, error.message)
        elif field == "set":
            self.add_error("set_no", error.message)
        elif field in ("entered_by_seat", "entry_pin"):
            self.add_error(field, error.message)
        else:
            self.add_error(None, error.message)


class TableEntryForm(forms.Form):
    """The table page's entry: the set, then either the hand outcome (kind, winner, discarder,
    fan, optional winning hand for the MCR fan check) or each seat's score change, and the seat of
    the player entering, with the players' names, and that player's own PIN (``entry_pin``,
    checked by :func:`scoring.services.submit_result`): that seat's PIN cannot confirm the result,
    so both are required (``require_seat``, the default) but for the director, who may enter as
    nobody's seat (then any seated player's PIN, or the director, confirms).

    :meth:`submission` gives the keyword arguments of :func:`scoring.services.submit_result`;
    :meth:`add_result_error` attaches a ResultError to the input it names.
    """

    field_order = ["entered_by_seat", "entry_pin", "set_no"]  # the page asks who is entering first
    MODES = (("outcome", _("Outcome (winner and fan)")), ("changes", _("Score changes")))
    KINDS = (("discard", _("Win on a discard")), ("self_draw", _("Self-draw")), ("draw", _("Draw (no winner)")))
    FIELD_OF_ERROR = {"set": "set_no", "fans": "fan", "winners": "winner", "discarder": "discarder", "kind": "kind",
                      "outcome": "kind", "hand": "hand", "entered_by_seat": "entered_by_seat", "entry_pin": "entry_pin"}

    set_no = forms.IntegerField(label=_("Set"), error_messages={
        "required": _("choose the set (hand) you played."), "invalid": _("choose the set (hand) you played.")})
    mode = forms.ChoiceField(label=_("How do you enter it?"), choices=MODES, required=False)
    kind = forms.ChoiceField(label=_("Result"), choices=KINDS, required=False)
    winner = forms.ChoiceField(label=_("Winner"), required=False)
    discarder = forms.ChoiceField(label=_("Discarder"), required=False)
    fan = forms.IntegerField(label=_("Fan"), required=False, error_messages={
        "invalid": _("type the winner's fan as a whole number, e.g. 8.")})
    hand = forms.CharField(label=_("Winning hand (optional, for the fan check)"), required=False, max_length=200)
    entered_by_seat = forms.ChoiceField(label=_("Who is entering?"), required=False)
    entry_pin = entry_pin_field()

    def __init__(self, *args, event, players: dict | None = None, require_seat: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        ruleset = event.get_ruleset()
        self.seats = tuple(ruleset.seats)
        self.typed_only = not PAYMENT_RULES[ruleset.payment_rule].computed
        players = players or {}
        seat_choices = [(seat, f"{seat} — {players[seat].name}" if seat in players else seat) for seat in self.seats]
        invalid = _("%(value)s is not a seat at this table: choose one of ") + ", ".join(self.seats) + "."
        for name in ("winner", "discarder"):
            self.fields[name].choices = seat_choices
            self.fields[name].error_messages["invalid_choice"] = invalid
        entering = self.fields["entered_by_seat"]
        entering.required = require_seat
        entering.choices = [("", _("choose your seat") if require_seat else _("the director (no seat)"))] + seat_choices
        entering.error_messages["invalid_choice"] = invalid
        entering.error_messages["required"] = _("choose who is entering: a player of another seat confirms the result with their PIN.")
        self.fields["entry_pin"].required = require_seat
        self.fields["kind"].error_messages["invalid_choice"] = _("Choose a win on a discard, a self-draw or a draw.")
        for seat in self.seats:
            self.fields[f"seat_{seat}"] = forms.IntegerField(
                label=_("Seat %(seat)s score change") % {"seat": seat}, required=False,
                error_messages={"invalid": _("type the score change as a whole number, e.g. -16.")},
            )

    def entry_mode(self) -> str:
        return "changes" if self.typed_only else (self.cleaned_data.get("mode") or "outcome")

    def clean(self):
        data = super().clean()
        _check_pin_has_seat(self)
        if self.entry_mode() == "changes":
            for seat in self.seats:
                name = f"seat_{seat}"
                if name not in self.errors and data.get(name) is None:
                    self.add_error(name, _("type the score change, 0 if the seat neither won nor paid."))
        elif (data.get("kind") or "discard") != "draw" and "fan" not in self.errors and data.get("fan") is None:
            self.add_error("fan", _("type the winner's fan as a whole number, e.g. 8."))
        return data

    def submission(self) -> dict:
        """``{"set_no", "changes" | "outcome", "entered_by_seat", "entry_pin"}`` for ``submit_result``."""
        data = self.cleaned_data
        entry = {"set_no": data["set_no"], "entered_by_seat": data.get("entered_by_seat") or None,
                 "entry_pin": data.get("entry_pin") or None}
        if self.entry_mode() == "changes":
            entry["changes"] = {seat: data[f"seat_{seat}"] for seat in self.seats}
            return entry
        kind = data.get("kind") or "discard"
        won = kind != "draw"
        entry["outcome"] = {
            "kind": kind, "winners": [data["winner"]] if won and data.get("winner") else [],
            "discarder": (data.get("discarder") or None) if kind == "discard" else None,
            "fans": [data["fan"]] if won else [], "hand": data.get("hand", "") if won else "",
        }
        return entry

    def add_result_error(self, error) -> None:
        """Attach a ResultError to the input it names (``changes.E`` → ``seat_E``, ``fans`` →
        ``fan``...); errors about the whole entry (``changes``: the sum) go to the form."""
        field = error.field.split(".", 1)[1] if error.field.startswith("changes.") else error.field
        name = f"seat_{field}" if field in self.seats else self.FIELD_OF_ERROR.get(field)
        self.add_error(name if name in self.fields else None, error.message)
