"""The director's forms: a new event (a preset or custom rule set, scoring options and the
roster), rooms, people, entrants and check-in."""

import dataclasses

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from scoring.conversion import PRESETS as CONVERSION_PRESETS
from scoring.payments import PAYMENT_RULES, YANGZHOU_MINIMUMS
from tournament.i18n import catalogue_text
from tournament.models import Event, EventRole
from walls.rulesets import LAYOUTS, PRESETS, RuleSetError, custom_ruleset
from walls.tiles import TileError, parse_counts

CUSTOM = "custom"


def _int_list(text: str, field: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise forms.ValidationError(_("Give whole numbers separated by commas, e.g. 13, 13, 13, 13."), code=field) from None


def _yangzhou_choice(fan: int, name: str, meaning: str) -> str:
    """A named Yangzhou minimum as offered: ``"13番しばり — 13 fan (一板 is 10 fan: the minimum is 一板 + 3)"``."""
    return _("%(name)s — %(fan)s fan (%(meaning)s)") % {"name": name, "fan": fan, "meaning": catalogue_text(meaning)}


class EventForm(forms.Form):
    """Create an event. With rule set *custom*, the custom fields describe the tile set and layout;
    errors from :func:`walls.rulesets.custom_ruleset` are shown on the field they concern."""

    name = forms.CharField(label=_("Event name"), max_length=200)
    slug = forms.SlugField(label=_("Short name (in addresses)"), max_length=40, required=False)
    ruleset = forms.ChoiceField(label=_("Rule set"), choices=[(code, lazy(catalogue_text, str)(r.name)) for code, r in PRESETS.items()] + [(CUSTOM, _("Custom…"))])
    min_fan = forms.IntegerField(
        label=_("Minimum hand value to win"), required=False, min_value=0,
        help_text=_("Optional, in the rule set's unit (fan or han): the smallest hand that may win, where the event agrees "
                    "one (Yangzhou: choose a named minimum below). Empty: the rule set's own minimum (MCR: 8 fan)."),
    )
    yangzhou_minimum = forms.TypedChoiceField(
        label=_("Yangzhou: minimum to win (しばり)"), required=False, coerce=int, empty_value=None,
        choices=[("", _("— (not Yangzhou, or the minimum above)"))] + [
            (str(fan), lazy(_yangzhou_choice, str)(fan, name, meaning)) for fan, name, meaning in YANGZHOU_MINIMUMS],
        help_text=_("The seed's named minimums: the fan of 一板 (the smallest big fan) or that plus 3. Choosing one "
                    "sets the minimum hand value of a Yangzhou event; leave it empty for other rule sets."),
    )
    method = forms.ChoiceField(label=_("Scoring method"), choices=Event.Method.choices)
    conversion = forms.ChoiceField(
        label=_("Conversion table"), required=False,
        choices=[("", _("The rule family's table (MCR MP, Riichi IMP...)"))] + [(code, t.name) for code, t in CONVERSION_PRESETS.items()],
        help_text=_("Empty: the preset fitted to the rule set's family and score unit (docs/scoring.md, "
                    "\"Conversion presets per rule family\")."))
    sessions = forms.IntegerField(label=_("Sessions"), min_value=1, max_value=100, initial=1)
    datum_method = forms.ChoiceField(label=_("Datum"), choices=Event.Datum.choices)
    comparison = forms.ChoiceField(label=_("Compare against"), choices=Event.Comparison.choices)
    entrant_policy = forms.ChoiceField(label=_("When entrants do not fill the groups"), choices=Event.EntrantPolicy.choices)
    fouled_min_tables = forms.IntegerField(
        label=_("Fouled set: tables needed to compare a version"), min_value=1, max_value=100, initial=2, required=False,
        help_text=_("Law 87: when the director marks a table's play of a set fouled, each version of the set played at "
                    "this many tables or more is compared on its own; a version at fewer tables gets the artificial "
                    "adjusted score below."),
    )
    fouled_adjusted_points = forms.IntegerField(
        label=_("Fouled set: artificial adjusted score (converted points)"), min_value=-100, max_value=100, initial=0,
        required=False,
        help_text=_("Given to a play of a fouled set whose version has too few tables to compare (Law 12C: an artificial "
                    "adjusted score); 0 is an average."),
    )
    public_value_source = forms.CharField(
        label=_("Public value to mix into the walls (optional)"), required=False, max_length=300,
        help_text=_("e.g. 'Nikkei 225 close on 2026-12-01'. Walls can be generated only once you enter it."),
    )
    base_url = forms.URLField(
        label=_("Public address"), required=False, max_length=200, assume_scheme="https",
        help_text=_("The address players open from the QR codes, e.g. https://mahjong.example.org/. "
                    "Empty: the address of this site."),
    )
    roster = forms.FileField(
        label=_("Roster file (CSV: team,player)"), required=False,
        help_text=_("One line per player under a header 'team,player' (individual events: 'player'). Comma, semicolon "
                    "or tab separated; UTF-8 or Shift-JIS, as spreadsheets save it."),
    )
    # The roster as read from the file of an earlier post, kept after an error (never typed).
    roster_text = forms.CharField(required=False, widget=forms.Textarea(attrs={"hidden": True, "aria-hidden": "true"}))
    roster_name = forms.CharField(required=False, widget=forms.HiddenInput)

    custom_name = forms.CharField(label=_("Custom rule set name"), required=False)
    custom_seats = forms.CharField(label=_("Seats (dealer first)"), required=False, initial="E S W N")
    custom_tiles = forms.CharField(label=_("Tiles"), required=False, initial="1m-9m:4 1p-9p:4 1s-9s:4 1z-7z:4",
                                   help_text=_("code:count or from-to:count; red fives 0m 0p 0s; flowers 1f-8f"))
    custom_layout = forms.ChoiceField(label=_("Layout"), required=False, choices=[(x, x) for x in LAYOUTS])
    custom_hand_sizes = forms.CharField(label=_("Starting hand per seat"), required=False, initial="13 13 13 13")
    custom_draw_sizes = forms.CharField(label=_("Private draw pile per seat (per-seat layout)"), required=False, initial="21 21 21 21")
    custom_dead_wall = forms.IntegerField(label=_("Dead wall tiles"), required=False, min_value=0, initial=0)
    custom_rounds = forms.IntegerField(label=_("Wind rounds per session"), required=False, min_value=1, initial=4)
    custom_starting_points = forms.IntegerField(label=_("Starting points"), required=False, initial=0)
    custom_zero_sum = forms.BooleanField(label=_("Score changes of a hand sum to zero"), required=False, initial=True)
    custom_payment_rule = forms.ChoiceField(label=_("Payment rule"), required=False, choices=[(x, x) for x in PAYMENT_RULES])

    def clean_fouled_min_tables(self):
        """Empty: the default, 2 tables (docs/scoring.md, "Fouled sets and reserve walls")."""
        value = self.cleaned_data.get("fouled_min_tables")
        return 2 if value is None else value

    def clean_fouled_adjusted_points(self):
        """Empty: the default, 0 (an average)."""
        value = self.cleaned_data.get("fouled_adjusted_points")
        return 0 if value is None else value

    def clean_min_fan(self):
        """The minimum within what the chosen rule set's payment rule accepts
        (:meth:`scoring.payments.PaymentRule.bounds`); a typed rule takes any whole number from 0."""
        value = self.cleaned_data.get("min_fan")
        code = self.data.get("ruleset")
        rule = PAYMENT_RULES.get(PRESETS[code].payment_rule if code in PRESETS else self.data.get("custom_payment_rule") or "")
        if value is None or rule is None or not rule.computed:
            return value
        low, high = rule.value_range
        if not low <= value <= high:
            raise forms.ValidationError(
                _("%(rule)s takes hands of %(low)s to %(high)s %(unit)s: give a minimum in that range, or leave it empty")
                % {"rule": rule.name, "low": low, "high": high, "unit": rule.value_unit},
            )
        return value

    def clean_yangzhou_minimum(self):
        """A named Yangzhou minimum (:data:`scoring.payments.YANGZHOU_MINIMUMS`) only for a rule set
        paid by the ``yangzhou`` rule; it becomes the event's ``min_fan``, so a different typed
        minimum is refused."""
        value = self.cleaned_data.get("yangzhou_minimum")
        if value is None:
            return None
        code = self.data.get("ruleset")
        rule = PRESETS[code].payment_rule if code in PRESETS else self.data.get("custom_payment_rule") if code == CUSTOM else ""
        if rule != "yangzhou":
            raise forms.ValidationError(_("the named minimums are Yangzhou's: choose the Yangzhou rule set, or leave this empty"))
        typed = self.cleaned_data.get("min_fan")
        if typed is not None and typed != value:
            raise forms.ValidationError(
                _("the minimum hand value above says %(typed)s fan and this says %(value)s: clear one of them")
                % {"typed": typed, "value": value})
        return value

    def clean(self):
        data = super().clean()
        if data.get("yangzhou_minimum") is not None:
            data["min_fan"] = data["yangzhou_minimum"]
        if data.get("ruleset") != CUSTOM:
            if data.get("ruleset") in PRESETS and data.get("min_fan") is not None:
                # the event's own copy of the preset: its minimum agreed for the event
                data["ruleset_object"] = dataclasses.replace(PRESETS[data["ruleset"]], min_fan=data["min_fan"])
            return data
        try:
            tiles = parse_counts(data.get("custom_tiles") or "")
        except TileError as exc:
            self.add_error("custom_tiles", str(exc))
            return data
        try:
            hands = _int_list(data.get("custom_hand_sizes") or "", "custom_hand_sizes")
            draws = _int_list(data.get("custom_draw_sizes") or "", "custom_draw_sizes") if data.get("custom_layout") == "per_seat" else None
        except forms.ValidationError as exc:
            self.add_error(exc.code, exc)
            return data
        try:
            data["ruleset_object"] = custom_ruleset(
                (self.data.get("slug") or "custom")[:30] + "-custom", data.get("custom_name") or "Custom rule set",
                tuple((data.get("custom_seats") or "").split()), tiles, data.get("custom_layout") or "per_seat",
                hands, draws, data.get("custom_dead_wall") or 0,
                rounds=data.get("custom_rounds") or 4, starting_points=data.get("custom_starting_points") or 0,
                zero_sum=bool(data.get("custom_zero_sum")), payment_rule=data.get("custom_payment_rule") or "typed",
                end_rule="as announced by the director", min_fan=data.get("min_fan"),
            )
        except RuleSetError as exc:
            self.add_error("custom_tiles", str(exc))
        return data


class QuickRoomsForm(forms.Form):
    """Rooms in one go: how many, and how many tables each holds (:func:`tournament.rooms.quick_rooms`)."""

    rooms = forms.IntegerField(label=_("Rooms"), min_value=1, max_value=500,
                               widget=forms.NumberInput(attrs={"id": "quick-rooms"}))
    capacity = forms.IntegerField(label=_("Tables per room"), min_value=1, max_value=1000,
                                  widget=forms.NumberInput(attrs={"id": "quick-capacity"}))


class InviteForm(forms.Form):
    """Invite a person into the event's staff (:func:`tournament.roles.invite`); ``tables`` are
    the seated sessions' tables a scorer enters results for."""

    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=[
        (EventRole.Role.STAFF, _("Staff")), (EventRole.Role.SCORER, _("Scorer")), (EventRole.Role.DIRECTOR, _("Director"))])
    tables = forms.MultipleChoiceField(label=_("Tables (scorers)"), required=False,
                                       help_text=_("A scorer enters and confirms results at these tables only."))

    def __init__(self, *args, table_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tables"].choices = list(table_choices)


class LateEntrantForm(forms.Form):
    """A late entrant (:func:`tournament.entrants.add_entrant`): a team and its players, one per
    line (team events), or one player."""

    team = forms.CharField(label=_("Team"), max_length=100, required=False)
    players = forms.CharField(label=_("Players (one per line, in seat order)"), widget=forms.Textarea(attrs={"rows": 4}))

    def player_names(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["players"].splitlines() if line.strip()]
