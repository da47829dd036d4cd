"""The result entry forms, built from the event's rule set and its payment rule
(:data:`scoring.payments.PAYMENT_RULES`): the director's entry of typed score changes
(:class:`ResultForm`), the table page's entry by the hand's outcome or by score changes
(:class:`TableEntryForm`) and the director's correction on a result's page
(:class:`CorrectionForm`), which shares the table page's hand fields (:class:`HandForm`)."""

from __future__ import annotations

import copy
import json

import uuid

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.actions.describe import NOTE_KEYS
from scoring.payments import MAX_HONBA, MAX_YAKUMAN, PAYMENT_RULES, PaymentError, ruleset_ranges, signed_points
from scoring.payments.core import value_error
from scoring.payments.counters import carried_inputs, counters_words, fixed_summary, read_fixed
from scoring.wall_check import KINDS as TILE_KINDS
from tournament.cache import Kept
from tournament.i18n import seat_label, seat_name
from tournament.models import Table
from walls.tiles import tile_label, tile_name

ENTRY_PIN_LABEL = _("Your PIN (the player entering)")
ENTRY_PIN_REQUIRED = _("type your own 4-digit PIN: it shows that you, the player entering, sit at that seat.")
SEAT_FOR_PIN = _("choose who is entering: the PIN typed is checked against the player at that seat")
CHANGE_INVALID = _("type the score change as a whole number, e.g. -16.")
CORRECTION_PIN_LABEL = _("Your PIN (the player correcting)")
CORRECTION_PIN_REQUIRED = _("type your own 4-digit PIN: it shows that you, the player correcting, sit at that seat.")
CORRECTING_SEAT_REQUIRED = _("choose who is correcting: the correction becomes that player's entry, and a player of "
                             "another seat confirms it with their PIN.")


def entry_pin_field() -> forms.CharField:
    """The entering player's own PIN: masked (the opponents sit around the phone), a number pad,
    never filled in by the browser nor sent back into the page."""
    return forms.CharField(
        label=ENTRY_PIN_LABEL, required=False, max_length=4, error_messages={"required": ENTRY_PIN_REQUIRED},
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": 4}),
    )


class SignedPointsField(forms.CharField):
    """A score change in points, typed as text so every phone keyboard can give its sign: ``-16``,
    ``−16`` (the Unicode minus), ``+24``, ``－１６`` (full width) and ``8,000`` are read as whole
    numbers (:func:`scoring.payments.signed_points`); anything else is refused with ``invalid``.
    ``ranges`` (:class:`scoring.payments.InputRanges`) and ``seat``: the change is read with the
    rule set's range (:meth:`~scoring.payments.InputRanges.change`), a number beyond it refused
    with the range; the input carries ``min``/``max`` and a ``title`` giving it."""

    default_error_messages = {"invalid": CHANGE_INVALID}

    def __init__(self, *, ranges=None, seat: str = "", **kwargs):
        self.ranges, self.seat = ranges, seat
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
        super().__init__(**kwargs)
        if ranges is not None:
            self.widget.attrs.update({"min": -ranges.changes, "max": ranges.changes,
                                      "title": _("%(low)s to %(high)s") % {"low": f"{-ranges.changes:,}", "high": f"{ranges.changes:,}"}})

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        if self.ranges is not None:
            try:
                return self.ranges.change(self.seat, text)
            except PaymentError as exc:
                raise forms.ValidationError(str(exc), code="range") from None
        number = signed_points(text)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def _check_pin_has_seat(form) -> None:
    """A PIN typed without the seat it belongs to is refused at the seat field."""
    if form.cleaned_data.get("entry_pin") and not form.cleaned_data.get("entered_by_seat") and "entered_by_seat" not in form.errors:
        form.add_error("entered_by_seat", SEAT_FOR_PIN)


def _seat_choices(seats, players: dict | None) -> list[tuple[str, str]]:
    """``(seat, "東 — name")`` choices: the seat in the page's language and its player."""
    players = players or {}
    return [(seat, f"{seat_label(seat)} — {players[seat].name}" if seat in players else seat_name(seat)) for seat in seats]


class ResultForm(forms.Form):
    """The director's entry page: score changes of one table on one set, and the seat of the
    player entering with that player's own PIN (both required but for the director: the PIN shows
    the seat is theirs, and that seat's PIN cannot confirm the result). Tables are labelled with
    their session ("Session 1 · Table 1"). Errors from :class:`scoring.actions.errors.ResultError` are
    attached to the field they name (``changes.E`` → ``seat_E``)."""

    table = forms.ModelChoiceField(queryset=Table.objects.none(), label=_("Table"))
    set_no = forms.IntegerField(min_value=1, max_value=99, label=_("Set"))
    entered_by_seat = forms.ChoiceField(label=_("Who is entering? (seat)"), required=False)
    entry_pin = entry_pin_field()

    def __init__(self, *args, event, tables=None, require_seat: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.seats = tuple(event.get_ruleset().seats)
        table_field = self.fields["table"]
        table_field.queryset = (tables if tables is not None else Table.objects.filter(group__session__event=event)) \
            .select_related("group__session").order_by("group__session__number", "number")
        table_field.label_from_instance = lambda table: _("Session %(session)s · Table %(table)s") % {
            "session": table.group.session.number, "table": table.number}
        entering = self.fields["entered_by_seat"]
        entering.required = require_seat
        entering.choices = [("", _("choose your seat") if require_seat else _("the director (no seat)"))] + _seat_choices(self.seats, None)
        entering.error_messages["required"] = _("choose who is entering: a player of another seat confirms the result with their PIN.")
        self.fields["entry_pin"].required = require_seat
        for seat in self.seats:
            self.fields[f"seat_{seat}"] = SignedPointsField(
                label=_("%(seat)s score change") % {"seat": seat_name(seat)}, ranges=ruleset_ranges(event.get_ruleset()), seat=seat,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "class": "points"}),
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


#: The set-up fields of the hand forms, kept per process by key (the form class, the
#: language, the rule set, the seats' players and the class's own arguments: see
#: :meth:`HandForm._fields_key`), at most 512 of them, the least recently used dropped.
#:
#: Setting up a hand form's fields (copying the declared fields, then the rule set's choices,
#: ranges and translated messages) cost about a fifth of a result entry from the table page
#: (docs/performance.md, "Entry, pages and bulk writes"). A form only reads its fields once they
#: are set up (validating and rendering read them; the per-form values live on the form), so forms
#: made with the same key share them; the one field a form changes, ``request_key``'s initial
#: value, is copied for each form.
_FIELD_SETS: Kept[tuple] = Kept(512)


class HandForm(forms.Form):
    """One hand's result, as its outcome or as typed score changes, driven by the rule set's
    payment rule (:class:`scoring.payments.PaymentRule`).

    Outcome inputs (names of the table page's DOM contract): ``kind`` (discard, self_draw, draw),
    ``winners`` (seats; several only where the rule has multiple winners), ``discarder``, for each
    seat ``value_<seat>`` (the hand's value in the rule's unit, fan or han), ``fu_<seat>`` and
    ``yakuman_<seat>`` where the rule takes them, ``honba``, ``riichi`` (seats), ``tenpai`` (seats,
    draws), ``shielded`` (seats, self-draws), ``open_riichi`` (a tick, self-draws), ``liable`` (a seat or ""), ``hand`` (MCR fan check).
    Typed inputs: ``seat_<seat>`` (points, any sign: :class:`SignedPointsField`) and ``deposit``
    where the rule set deposits sticks. ``mode`` chooses between them where the rule computes
    (typed changes are then an adjustment); a typed rule has only the typed inputs.

    Every number has the rule set's range (:func:`scoring.payments.input_ranges`, the one
    definition the API and the service read too): ``value_<seat>`` within the rule's bounds (0
    allowed where the rule counts yakuman, for a winner by yakuman alone), ``honba`` 0 to
    :data:`~scoring.payments.MAX_HONBA`, ``seat_<seat>`` and ``deposit`` at most the largest hand
    the rule set pays times its seats; the inputs carry ``min``/``max`` and an out-of-range
    number is refused at its input naming the range.

    Only the inputs that matter for the chosen kind are read, so what the page's script hid (a
    discarder left ticked before switching to self-draw) never makes an error, and errors are
    attached to an input the scorer sees (:meth:`add_result_error`).
    """

    MODES = (("outcome", _("By outcome")), ("changes", _("Score changes (adjustment)")))
    KINDS = (("discard", _("Win on a discard")), ("self_draw", _("Self-draw")), ("draw", _("Draw (no winner)")))
    SEAT_LISTS = ("winners", "discarder", "riichi", "tenpai", "shielded")

    mode = forms.ChoiceField(label=_("How do you enter it?"), choices=MODES, required=False)
    kind = forms.ChoiceField(label=_("Result"), choices=KINDS, required=False)
    winners = forms.MultipleChoiceField(label=_("Winner"), required=False)
    discarder = forms.ChoiceField(label=_("Discarder"), required=False)
    honba = forms.IntegerField(label=_("Honba (counters)"), required=False, min_value=0, max_value=MAX_HONBA, error_messages={
        "invalid": _("type the number of honba counters on the table, e.g. 1 (0 for none).")})
    riichi = forms.MultipleChoiceField(label=_("Riichi declared"), required=False)
    tenpai = forms.MultipleChoiceField(label=_("Tenpai at the draw"), required=False)
    shielded = forms.MultipleChoiceField(label=_("Shielded (pays nothing)"), required=False)
    open_riichi = forms.BooleanField(label=_("Open riichi by the winner: the shielded pay too"), required=False, help_text=_(
        "Open riichi lifts the shield: the shielded seats pay their third too."))
    liable = forms.ChoiceField(label=_("Liable for the full flush (bao)"), required=False)
    hand = forms.CharField(label=_("Winning hand (optional, for the fan check)"), required=False, max_length=200)
    winning_tile = forms.ChoiceField(label=_("Winning tile (optional)"), required=False,
                                     choices=[("", "—")] + [(kind, kind) for kind in TILE_KINDS])
    deposit = forms.IntegerField(label=_("Riichi sticks left on the table (points)"), required=False, error_messages={
        "invalid": _("type the points of the sticks left on the table as a whole number, e.g. 1000 (0 for none).")})
    request_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, event, players: dict | None = None, **kwargs):
        self.event = event
        ruleset = event.get_ruleset()
        self.ruleset = ruleset
        self.rule = PAYMENT_RULES[ruleset.payment_rule]
        self.seats = tuple(ruleset.seats)
        self.players = players or {}
        self.typed_only = not self.rule.computed
        self.unit = _("Han") if self.rule.value_unit == "han" else _("Fan")
        self.ranges = ruleset_ranges(ruleset)
        # the rule set is one object per definition and process (Event.get_ruleset): kept by identity,
        # checked below (kept[0] is ruleset), so a reused id never gives another rule set's fields
        key = (type(self), get_language(), id(ruleset),
               tuple((seat, self.players[seat].name if seat in self.players else None) for seat in self.seats), self._fields_key())
        kept = _FIELD_SETS.get(key)
        if kept is not None and kept[0] is ruleset:
            self.base_fields = {}  # this instance only: Form.__init__ copies no field, the kept ones are given below
            super().__init__(*args, **kwargs)
            del self.base_fields
            self.fields = dict(kept[1])
        else:
            super().__init__(*args, **kwargs)
            self._build_fields()
            _FIELD_SETS.put(key, (ruleset, dict(self.fields)))
        # the write's key (scoring.actions.request_keys): new in each form shown, sent again with a repeat of it
        request_key = copy.copy(self.fields["request_key"])
        request_key.initial = uuid.uuid4().hex
        self.fields["request_key"] = request_key

    def _fields_key(self) -> tuple:
        """What, besides the class, the language, the rule set and the seats' players, the fields
        :meth:`_build_fields` makes depend on (a subclass's own arguments)."""
        return ()

    def _build_fields(self) -> None:
        """Set up ``self.fields`` (a fresh copy of the declared fields) for this form's rule set,
        seats, players and language. Runs once per process for each :meth:`_fields_key`; the
        fields are then shared, read-only, by the forms made with the same key
        (:data:`_FIELD_SETS`)."""
        seat_choices = _seat_choices(self.seats, self.players)
        invalid = _("%(value)s is not a seat at this table: choose one of ") + ", ".join(self.seats) + "."
        for name in self.SEAT_LISTS:
            self.fields[name].choices = seat_choices
            self.fields[name].error_messages["invalid_choice"] = invalid
        self.fields["liable"].choices = [("", _("nobody"))] + seat_choices
        self.fields["liable"].error_messages["invalid_choice"] = invalid
        self.fields["kind"].error_messages["invalid_choice"] = _("Choose a win on a discard, a self-draw or a draw.")
        self.fields["winning_tile"].error_messages["invalid_choice"] = _(
            "%(value)s is not a tile: tap one of the 34 tiles, or none.")
        low, high = self.ranges.values
        value_invalid = (_("type the winner's han as a whole number, e.g. 3.") if self.rule.value_unit == "han"
                         else _("type the winner's fan as a whole number, e.g. 8."))
        self.fields["deposit"].widget.attrs.update({"min": 0, "max": self.ranges.deposit})
        for seat in self.seats:
            # A yakuman winner may leave its han blank or 0; the service refuses 0 without yakuman.
            lowest = 0 if "yakuman" in self.rule.inputs else low
            out_of_range = value_error(self.rule, seat, "%(value)s", low, high).args[0] if self.rule.computed else value_invalid
            self.fields[f"value_{seat}"] = forms.IntegerField(
                label=_("%(seat)s: %(unit)s") % {"seat": seat_name(seat), "unit": self.unit}, required=False,
                min_value=lowest, max_value=high,
                error_messages={"invalid": value_invalid, "min_value": out_of_range, "max_value": out_of_range},
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "placeholder": f"{low}–{high}",
                                              "min": lowest, "max": high}))
            if "fu" in self.rule.inputs:
                self.fields[f"fu_{seat}"] = forms.TypedChoiceField(
                    label=_("%(seat)s: fu") % {"seat": seat_name(seat)}, required=False, coerce=int, empty_value=None,
                    choices=[("", "—")] + [(str(fu), str(fu)) for fu in self.rule.fu_choices])
            if "yakuman" in self.rule.inputs:
                self.fields[f"yakuman_{seat}"] = forms.TypedChoiceField(
                    label=_("%(seat)s: yakuman") % {"seat": seat_name(seat)}, required=False, coerce=int, empty_value=0,
                    choices=[("0", "—")] + [(str(k), str(k)) for k in range(1, MAX_YAKUMAN + 1)])
            self.fields[f"seat_{seat}"] = SignedPointsField(
                label=_("%(seat)s score change") % {"seat": seat_name(seat)}, required=False, ranges=self.ranges, seat=seat,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "class": "points"}))

    def show_fixed_counters(self, session: int, set_no: int | None = None) -> None:
        """Show the honba and riichi sticks fixed for the set ``set_no`` of ``session`` (every set
        of the session when None) as text instead of the honba input
        (:attr:`fixed_counters`; :mod:`scoring.payments.counters`)."""
        takes = carried_inputs(self.rule)
        stored = self.event.fixed_counters
        if set_no is None:
            self.fixed_counters = fixed_summary(stored, session, self.ruleset.hands_per_session, takes)
            if takes:  # the page's script shows the chosen set's line alone (static/entry.js)
                self.fixed_by_set = json.dumps({
                    str(n): _("Fixed for set %(session)s-%(set)s: %(counters)s") % {
                        "session": session, "set": n, "counters": counters_words(read_fixed(stored, session, n), takes)}
                    for n in range(1, self.ruleset.hands_per_session + 1)}, ensure_ascii=False)
            self.carried_by_set = json.dumps({
                str(n): [read_fixed(stored, session, n).honba, read_fixed(stored, session, n).riichi]
                for n in range(1, self.ruleset.hands_per_session + 1)})
        elif takes:
            self.fixed_counters = _("Fixed for set %(session)s-%(set)s: %(counters)s") % {
                "session": session, "set": set_no, "counters": counters_words(read_fixed(stored, session, set_no), takes)}

    fixed_counters = ""
    """The fixed honba and sticks in words once :meth:`show_fixed_counters` ran; ``""``: the
    page shows the honba input (a rule set without carried counters shows neither)."""
    fixed_by_set = ""
    """JSON ``{set number: that set's line}`` for the table page's script, which shows the
    chosen set's line instead of the whole session's (one line on a phone)."""
    carried_by_set = "{}"
    """JSON ``{set number: [honba, riichi sticks]}`` fixed for each set of the session, for the
    table page's queue, which prices a hand entered without a connection (static/payments.js)."""

    def seat_labels_json(self) -> str:
        """JSON ``{seat: label}`` (E/東/东) in seat order, for the table page's scripts."""
        return json.dumps({seat: seat_label(seat) for seat in self.seats}, ensure_ascii=False)

    def clean_deposit(self):
        """The typed deposit within the rule set's range (:meth:`scoring.payments.InputRanges.read_deposit`)."""
        value = self.cleaned_data.get("deposit")
        if value is None:
            return None
        try:
            return self.ranges.read_deposit(value)
        except PaymentError as exc:
            raise forms.ValidationError(str(exc), code="range") from None

    # --- what the page shows -------------------------------------------------------------------

    def takes(self, name: str) -> bool:
        """Whether the payment rule takes the optional input ``name`` (fu, honba, riichi, ...)."""
        return name in self.rule.inputs

    @property
    def takes_deposit(self) -> bool:
        """Typed changes may leave sticks on the table (the rule set deposits riichi sticks)."""
        return bool(self.ruleset.deposit)

    def _ticked(self, name: str) -> set[str]:
        value = self[name].value()
        if value is None:
            return set()
        return {value} if isinstance(value, str) else set(value)

    def seat_rows(self) -> list[dict]:
        """One dict per seat for the template: ``seat``, ``label`` (東/E), ``name`` (東家/East),
        ``player``, the ticks of each seat list (``winners``, ``discarder``, ...), the bound
        fields ``value``, ``fu``, ``yakuman`` (None where the rule takes none) and ``change``."""
        ticks = {name: self._ticked(name) for name in self.SEAT_LISTS}
        return [{
            "seat": seat, "label": seat_label(seat), "name": seat_name(seat), "player": self.players.get(seat),
            **{name: seat in ticked for name, ticked in ticks.items()},
            "value": self[f"value_{seat}"], "change": self[f"seat_{seat}"],
            "fu": self[f"fu_{seat}"] if f"fu_{seat}" in self.fields else None,
            "yakuman": self[f"yakuman_{seat}"] if f"yakuman_{seat}" in self.fields else None,
        } for seat in self.seats]

    SUIT_NAMES = (("m", _("Characters")), ("p", _("Dots")), ("s", _("Bamboo")), ("z", _("Honours")))

    def tile_rows(self) -> list[dict]:
        """The winning-tile picker, one row per suit: ``{"suit", "label", "tiles": [{"code",
        "glyph" (the rank, or E S W N Wh Gr Rd: 東南西北白發中 on a Japanese page), "name" (in the page's language), "checked"}]}``."""
        chosen = self["winning_tile"].value() or ""
        lang = (get_language() or "en").split("-")[0]
        lang = lang if lang in ("en", "ja", "zh") else "en"
        return [{"suit": suit, "label": label, "tiles": [
            {"code": code, "glyph": tile_label(code, lang) if suit == "z" else code[0], "name": tile_name(code, lang),
             "checked": code == chosen} for code in TILE_KINDS if code[1] == suit]} for suit, label in self.SUIT_NAMES]

    @property
    def chosen_mode(self) -> str:
        """The mode the page shows: ``changes`` for a typed rule, else the one posted (default outcome)."""
        if self.typed_only:
            return "changes"
        if hasattr(self, "cleaned_data"):
            return self.entry_mode()
        return "changes" if self["mode"].value() == "changes" else "outcome"

    @property
    def chosen_kind(self) -> str:
        """The outcome kind the page shows chosen (``discard``, ``self_draw``, ``draw``), ``""``
        before one is picked; read from the bound data, valid or not."""
        return self["kind"].value() or ""

    @staticmethod
    def anchor(name: str, seats: tuple[str, ...]) -> str:
        """The id of the input an error on field ``name`` points to (the first of a seat list)."""
        first = {"winners": "win", "discarder": "discarder", "riichi": "riichi", "tenpai": "tenpai", "shielded": "shielded"}
        if name in first:
            return f"{first[name]}-{seats[0]}"
        if name == "kind":
            return "kind-discard"
        return name

    def error_list(self) -> list[dict]:
        """Every error for the summary at the top: ``{"field", "anchor", "label", "message"}``."""
        listed = []
        for name, errors in self.errors.items():
            for message in errors:
                if name == "__all__":
                    listed.append({"field": name, "anchor": "", "label": "", "message": message})
                else:
                    listed.append({"field": name, "anchor": self.anchor(name, self.seats), "label": self.fields[name].label,
                                   "message": message})
        return listed

    # --- reading it ----------------------------------------------------------------------------

    def entry_mode(self) -> str:
        """``changes`` or ``outcome``: a typed rule's is changes; else the mode posted, or, with
        none, changes when score changes were typed and no kind chosen (a plain POST)."""
        if self.typed_only:
            return "changes"
        data = self.cleaned_data
        if data.get("mode"):
            return data["mode"]
        typed = any(data.get(f"seat_{seat}") is not None or f"seat_{seat}" in self.errors for seat in self.seats)
        return "changes" if typed and not data.get("kind") else "outcome"

    def _winners(self) -> list[str]:
        """The winners ticked, in turn order from the discarder (a discard), else in seat order."""
        data = self.cleaned_data
        ticked = set(data.get("winners") or ())
        order = list(self.seats)
        discarder = data.get("discarder")
        if data.get("kind") == "discard" and discarder in order:
            at = order.index(discarder)
            order = order[at + 1:] + order[:at + 1]
        return [seat for seat in order if seat in ticked]

    ALWAYS = ("mode", "set_no", "entered_by_seat", "entry_pin", "reason", "request_key")

    def _relevant(self) -> set[str]:
        """The inputs the chosen mode and kind use: only they are read, and only their errors kept."""
        relevant = set(self.ALWAYS)
        if self.entry_mode() == "changes":
            return relevant | {f"seat_{seat}" for seat in self.seats} | {"deposit"}
        kind = self.cleaned_data.get("kind")
        relevant |= {"kind", "riichi"}
        if kind == "draw":
            return relevant | {"tenpai"}
        if kind in ("discard", "self_draw"):
            relevant |= {"winners", "honba", "liable", "hand", "winning_tile"} | ({"discarder"} if kind == "discard" else {"shielded", "open_riichi"})
            for seat in self._winners():
                relevant |= {f"value_{seat}", f"fu_{seat}", f"yakuman_{seat}"}
        return relevant

    def clean(self):
        data = super().clean()
        relevant = self._relevant()
        for name in [name for name in self._errors if name != "__all__" and name not in relevant]:
            del self._errors[name]
        if self.entry_mode() == "changes":
            for seat in self.seats:
                name = f"seat_{seat}"
                if name not in self.errors and data.get(name) is None:
                    self.add_error(name, _("type the score change, 0 if the seat neither won nor paid."))
            return data
        kind = data.get("kind")
        if not kind:
            if "kind" not in self.errors:
                self.add_error("kind", _("choose how the hand ended: a win on a discard, a self-draw or a draw."))
            return data
        if kind == "draw":
            return data
        winners = self._winners()
        if not winners and "winners" not in self.errors:
            self.add_error("winners", _("choose the winner."))
        if kind == "discard" and not data.get("discarder") and "discarder" not in self.errors:
            self.add_error("discarder", _("choose the seat that discarded the winning tile."))
        for seat in winners:
            name = f"value_{seat}"
            no_yakuman = not data.get(f"yakuman_{seat}")
            if name not in self.errors and data.get(name) is None and no_yakuman:
                self.add_error(name, self.fields[name].error_messages["invalid"])
        return data

    def hand_entry(self) -> dict:
        """``{"changes": {...}, "deposit": points}`` or ``{"outcome": {...}}`` for the services
        (:func:`scoring.actions.entry.submit_result`, :func:`~scoring.actions.confirmation.correct_result`): the
        outcome holds only what the rule takes and the kind uses (``fans`` one per winner, 0 for
        a yakuman winner without han)."""
        data = self.cleaned_data
        if self.entry_mode() == "changes":
            entry = {"changes": {seat: data[f"seat_{seat}"] for seat in self.seats}}
            if self.takes_deposit:
                entry["deposit"] = data.get("deposit") or 0
            return entry
        kind = data["kind"]
        won = kind != "draw"
        winners = self._winners() if won else []
        outcome = {"kind": kind, "winners": winners, "discarder": data.get("discarder") or None if kind == "discard" else None,
                   "fans": [data.get(f"value_{seat}") or 0 for seat in winners]}
        if self.takes("fu"):
            outcome["fu"] = [data.get(f"fu_{seat}") for seat in winners]
        if self.takes("yakuman"):
            outcome["yakuman"] = [data.get(f"yakuman_{seat}") or 0 for seat in winners]
        if self.takes("honba") and won and data.get("honba") is not None:
            # only when typed: the set's fixed honba apply otherwise (scoring.payments.counters)
            outcome["honba"] = data["honba"]
        if self.takes("riichi"):
            outcome["riichi"] = [seat for seat in self.seats if seat in (data.get("riichi") or ())]
        if self.takes("tenpai") and kind == "draw":
            outcome["tenpai"] = [seat for seat in self.seats if seat in (data.get("tenpai") or ())]
        if self.takes("shielded") and kind == "self_draw":
            outcome["shielded"] = [seat for seat in self.seats if seat in (data.get("shielded") or ())]
        if self.takes("open_riichi") and kind == "self_draw" and data.get("open_riichi"):
            outcome["open_riichi"] = True
        if self.takes("liable") and won and data.get("liable"):
            outcome["liable"] = data["liable"]
        if self.rule.fan_check and won and data.get("hand"):
            outcome["hand"] = data["hand"]
        if won and data.get("winning_tile"):
            outcome["winning_tile"] = data["winning_tile"]
        return {"outcome": outcome}

    def _winner_field(self, prefix: str) -> str | None:
        """The ``<prefix>_<seat>`` input of the winner an outcome error on that input is about:
        the first winner whose value is missing or out of the rule's range, else the first."""
        winners = self._winners() if self.is_bound and hasattr(self, "cleaned_data") else []
        if not winners:
            return None
        if prefix == "value":
            low, high = self.rule.bounds(self.ruleset.min_fan)
            for seat in winners:
                value = self.cleaned_data.get(f"value_{seat}")
                if not self.cleaned_data.get(f"yakuman_{seat}") and (value is None or not low <= value <= high):
                    return f"value_{seat}"
        if prefix == "fu":
            for seat in winners:
                if self.cleaned_data.get(f"fu_{seat}") is None:
                    return f"fu_{seat}"
        return f"{prefix}_{winners[0]}"

    FIELD_OF_ERROR = {"request_key": "request_key", "kind": "kind", "outcome": "kind", "winners": "winners", "discarder": "discarder", "honba": "honba",
                      "riichi": "riichi", "tenpai": "tenpai", "shielded": "shielded", "open_riichi": "open_riichi", "liable": "liable", "hand": "hand",
                      "winning_tile": "winning_tile", "deposit": "deposit", "set": "set_no", "entered_by_seat": "entered_by_seat",
                      "entry_pin": "entry_pin"}

    def add_result_error(self, error) -> None:
        """Attach a ResultError to the input it names (``changes.E`` → ``seat_E``, ``fans`` →
        the value of the winner it is about, ``fu`` → that winner's fu, ``yakuman`` → the first
        winner's yakuman, ``discarder`` → the discarder buttons...); errors about the whole entry
        (``changes``: the sum) go to the form. A typed deposit of a rule set without sticks goes
        to the form too."""
        field = error.field.split(".", 1)[1] if error.field.startswith("changes.") else error.field
        if field in self.seats:
            name = f"seat_{field}"
        elif field in ("fans", "fu", "yakuman"):
            name = self._winner_field({"fans": "value"}.get(field, field))
        else:
            name = self.FIELD_OF_ERROR.get(field)
        if name == "deposit" and not self.takes_deposit:
            name = None
        self.add_error(name if name in self.fields else None, error.message)

    # --- filling it from a stored result -------------------------------------------------------

    @classmethod
    def initial_for(cls, result) -> dict:
        """The form's ``initial`` for a stored result: its outcome when it was entered that way
        (mode outcome), else its score changes (mode changes), and its deposit."""
        stored = {k: v for k, v in (result.outcome or {}).items() if k not in NOTE_KEYS}
        initial = {f"seat_{seat}": change for seat, change in result.changes.items()}
        initial["deposit"] = result.deposit
        if not stored.get("kind"):
            initial["mode"] = "changes"
            return initial
        winners = list(stored.get("winners") or ())
        initial.update(mode="outcome", kind=stored["kind"], winners=winners, discarder=stored.get("discarder") or "",
                       honba=stored.get("honba") or "", riichi=list(stored.get("riichi") or ()),
                       tenpai=list(stored.get("tenpai") or ()), shielded=list(stored.get("shielded") or ()),
                       open_riichi=bool(stored.get("open_riichi")),
                       liable=stored.get("liable") or "", hand=(result.outcome or {}).get("hand") or "",
                       winning_tile=(result.outcome or {}).get("winning_tile") or "")
        for key, prefix in (("fans", "value"), ("fu", "fu"), ("yakuman", "yakuman")):
            for seat, value in zip(winners, stored.get(key) or ()):
                if value:
                    initial[f"{prefix}_{seat}"] = value
        return initial


class _SeatedHandForm(HandForm):
    """A hand entered by a seated player (``entered_by_seat``) with their own PIN (``entry_pin``),
    both required unless ``require_seat`` is False (the director)."""

    def __init__(self, *args, event, players: dict | None = None, require_seat: bool = True, **kwargs):
        self.require_seat = require_seat
        super().__init__(*args, event=event, players=players, **kwargs)

    def _fields_key(self) -> tuple:
        return (self.require_seat,)

    def _seat_pin_key(self) -> dict:
        """The entering seat, its PIN and the request key of the cleaned data (None when left out)."""
        data = self.cleaned_data
        return {key: data.get(key) or None for key in ("entered_by_seat", "entry_pin", "request_key")}


class TableEntryForm(_SeatedHandForm):
    """The table page's entry: the set, the hand (:class:`HandForm`: its outcome, or each seat's
    score change), and the seat of the player entering with that player's own PIN
    (``entry_pin``, checked by :func:`scoring.actions.entry.submit_result`): that seat's PIN cannot
    confirm the result, so both are required (``require_seat``, the default) but for the
    director, who may enter as nobody's seat (then any seated player's PIN, or the director,
    confirms).

    :meth:`submission` gives the keyword arguments of :func:`scoring.actions.entry.submit_result`;
    :meth:`add_result_error` attaches a ResultError to the input it names.
    """

    set_no = forms.IntegerField(label=_("Set"), error_messages={
        "required": _("choose the set (hand) you played."), "invalid": _("choose the set (hand) you played.")})
    entered_by_seat = forms.ChoiceField(label=_("Who is entering?"), required=False)
    entry_pin = entry_pin_field()

    def _build_fields(self) -> None:
        super()._build_fields()
        require_seat = self.require_seat
        entering = self.fields["entered_by_seat"]
        entering.required = require_seat
        entering.choices = [("", _("choose your seat") if require_seat else _("the director (no seat)"))] + \
            _seat_choices(self.seats, self.players)
        entering.error_messages["invalid_choice"] = self.fields["discarder"].error_messages["invalid_choice"]
        entering.error_messages["required"] = _("choose who is entering: a player of another seat confirms the result with their PIN.")
        self.fields["entry_pin"].required = require_seat

    def clean(self):
        data = super().clean()
        _check_pin_has_seat(self)
        return data

    def submission(self) -> dict:
        """``{"set_no", "changes" (+ "deposit") | "outcome", "entered_by_seat", "entry_pin", "request_key"}``
        for ``submit_result``."""
        return {"set_no": self.cleaned_data["set_no"], **self._seat_pin_key(), **self.hand_entry()}


class CorrectionForm(_SeatedHandForm):
    """A correction on a result's page: the same hand fields as the table page, filled in with the
    stored result (:meth:`HandForm.initial_for`), the reason (required by
    :func:`scoring.actions.confirmation.correct_result` once the result is confirmed or disputed), and, like
    the table page's entry, who is correcting (``entered_by_seat``) with that player's own PIN
    (``entry_pin``): a correction at the table becomes the correcting seat's entry, which another
    seat confirms. Both are required (``require_seat``, the default) but for the director, whose
    form leaves them out.

    :meth:`submission` gives the keyword arguments of ``correct_result``."""

    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
    entered_by_seat = forms.ChoiceField(label=_("Who is correcting?"), required=False)
    entry_pin = entry_pin_field()
    FIELD_OF_ERROR = {**HandForm.FIELD_OF_ERROR, "reason": "reason"}

    def _build_fields(self) -> None:
        super()._build_fields()
        if not self.require_seat:  # the director corrects as the director: no seat, no PIN
            del self.fields["entered_by_seat"], self.fields["entry_pin"]
            return
        correcting = self.fields["entered_by_seat"]
        correcting.required = True
        correcting.choices = [("", _("choose your seat"))] + _seat_choices(self.seats, self.players)
        correcting.error_messages["invalid_choice"] = self.fields["discarder"].error_messages["invalid_choice"]
        correcting.error_messages["required"] = CORRECTING_SEAT_REQUIRED
        self.fields["entry_pin"].required = True
        self.fields["entry_pin"].label = CORRECTION_PIN_LABEL
        self.fields["entry_pin"].error_messages["required"] = CORRECTION_PIN_REQUIRED

    def submission(self) -> dict:
        """``{"reason", "changes" (+ "deposit") | "outcome", "entered_by_seat", "entry_pin", "request_key"}``
        for :func:`scoring.actions.confirmation.correct_result` (seat and PIN None on the director's form)."""
        return {"reason": self.cleaned_data.get("reason") or "", **self._seat_pin_key(), **self.hand_entry()}
