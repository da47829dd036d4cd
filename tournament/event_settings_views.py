"""The director's event settings page, the event's status buttons and its deletion
(:mod:`tournament.event_setup` does the work; these views adapt forms to it).

- :func:`event_settings`: the settings form (:class:`SettingsForm`); a frozen setting is shown
  read-only with the sentence why (:func:`tournament.event_setup.frozen_reasons`).
- :func:`event_status`: POST ``status`` (draft, published, finished, archived).
- :func:`event_delete`: a confirmation page; POST ``confirm_slug`` (the event's short name).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.conversion import PRESETS as CONVERSION_PRESETS
from scoring.standings import TIE_BREAKS
from scoring.visibility import sets_to_play
from tournament.venue import address_problem, suggested_address
from tournament.access import DIRECTOR, event_view
from tournament.event_setup import (
    DELETABLE,
    SetupError,
    allowed_statuses,
    change_status,
    current_settings,
    delete_event,
    deletion_refusal,
    frozen_reasons,
    seed_would_be_lost,
    update_settings,
)
from tournament.i18n import catalogue_text
from tournament.models import Event
from walls.printing.templates import DEFAULT_TEMPLATE
from walls.printing.tilesize import TILE_SIZES, default_tile_size
from walls.printing.templates import PRESETS as LABEL_STOCKS
from walls.rulesets import PRESETS as RULESET_PRESETS

FORM_FIELDS = {"sessions_planned": "sessions"}
"""Form field of a setting whose name differs (:func:`tournament.event_setup.update_settings`)."""

SHEET_LANGUAGES = (("en", "English"), ("ja", "日本語"), ("zh-hans", "简体中文"))
MAX_ROUNDS = 4  # choices of wind rounds per session offered (more is kept when the event has it)

STATUS_BUTTONS = {
    # (from, to): the button's label
    (Event.Status.DRAFT, Event.Status.PUBLISHED): gettext_lazy("Publish"),
    (Event.Status.PUBLISHED, Event.Status.DRAFT): gettext_lazy("Back to draft"),
    (Event.Status.PUBLISHED, Event.Status.FINISHED): gettext_lazy("Finish the event"),
    (Event.Status.FINISHED, Event.Status.PUBLISHED): gettext_lazy("Reopen"),
    (Event.Status.FINISHED, Event.Status.ARCHIVED): gettext_lazy("Archive"),
    (Event.Status.ARCHIVED, Event.Status.FINISHED): gettext_lazy("Unarchive"),
}
STATUS_HELP = {
    Event.Status.DRAFT: gettext_lazy("Draft: hidden. Only the event's director, staff and scorers see it; anyone else "
                                     "gets “page not found”."),
    Event.Status.PUBLISHED: gettext_lazy("Published: listed on the home page; its public pages are open to everyone."),
    Event.Status.FINISHED: gettext_lazy("Finished: play is over. Download the full export (Export the event (JSON)) to keep "
                                        "a copy; reopen the event to correct it."),
    Event.Status.ARCHIVED: gettext_lazy("Archived: kept and still public, listed under “Archived events” on the home "
                                        "page; its settings no longer change."),
}


class SettingsForm(forms.Form):
    """The event's settings (:data:`tournament.event_setup.SETTINGS`; ``sessions`` is
    ``sessions_planned``). Built for one event: its choices, initial values, and frozen fields
    disabled (the posted value of a disabled field is ignored: the event's is kept).
    ``site_address``: the public address offered when the event has none."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    base_url = forms.CharField(  # checked by update_settings: a LAN name without a dot is fine
        label=gettext_lazy("Public address"), required=False, max_length=200,
        help_text=gettext_lazy("The address players and scorers open: the QR codes on the wall stickers and the "
                               "table login on the score sheets link there."))
    sessions = forms.IntegerField(label=gettext_lazy("Sessions"), min_value=1, max_value=50)
    ruleset = forms.ChoiceField(label=gettext_lazy("Rule set"))
    rounds = forms.TypedChoiceField(label=gettext_lazy("Hands per session"), coerce=int)
    conversion = forms.ChoiceField(label=gettext_lazy("Conversion method"))
    entrant_policy = forms.ChoiceField(label=gettext_lazy("When entrants do not fill the groups"),
                                       choices=Event.EntrantPolicy.choices)
    scorer_corrections = forms.BooleanField(
        label=gettext_lazy("Scorers may correct unconfirmed results"), required=False,
        help_text=gettext_lazy("Off: only the director changes a result once it is entered."))
    tile_size = forms.ChoiceField(
        label=gettext_lazy("Tile size"), required=False,
        help_text=gettext_lazy("The back of one tile, width across a row × height. Wall stickers are printed to fit it: "
                               "row strips at this pitch, and a label stock whose labels would overhang is refused."))
    tile_custom = forms.CharField(
        label=gettext_lazy("Other tile size (width × height, mm)"), required=False, max_length=20,
        widget=forms.TextInput(attrs={"placeholder": "24.5 x 33", "inputmode": "decimal"}),
        help_text=gettext_lazy("Used when the tile size is \"Other size\": measure the back of one tile."))
    default_label_stock = forms.ChoiceField(label=gettext_lazy("Default label stock"), required=False)
    sheet_language = forms.ChoiceField(label=gettext_lazy("Language of printed sheets"), choices=SHEET_LANGUAGES)
    tie_breaks = forms.MultipleChoiceField(
        label=gettext_lazy("Tie-breaks"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy("Entrants with equal points are ranked by the ticked tie-breaks, in the order of their "
                               "numbers; still equal, they share the place. None ticked: the default order."))
    fouled_min_tables = forms.IntegerField(label=gettext_lazy("Tables needed to compare a fouled version"), min_value=1)
    fouled_adjusted_points = forms.IntegerField(label=gettext_lazy("Artificial adjusted score (converted points)"))

    def __init__(self, *args, event: Event, site_address: str = "", **kwargs):
        values = current_settings(event)
        ruleset = event.get_ruleset()
        initial = {**values, "sessions": values["sessions_planned"],
                   "base_url": values["base_url"] or site_address,
                   "tie_breaks": values["tie_breaks"]}
        super().__init__(*args, initial=initial, **kwargs)
        self.event = event
        self.frozen = frozen_reasons(event)
        rulesets = {code: catalogue_text(preset.name) for code, preset in RULESET_PRESETS.items()}
        rulesets.setdefault(event.ruleset_code, catalogue_text(ruleset.name))
        self.fields["ruleset"].choices = list(rulesets.items())
        seats = len(ruleset.seats)
        rounds = sorted(set(range(1, MAX_ROUNDS + 1)) | {ruleset.rounds})
        self.fields["rounds"].choices = [(r, _("%(hands)s hands (%(rounds)s × %(seats)s seats)")
                                          % {"hands": r * seats, "rounds": r, "seats": seats}) for r in rounds]
        self.fields["rounds"].help_text = _("Each round is one hand per seat, so a session has a multiple of %(seats)s "
                                            "hands.") % {"seats": seats}
        conversions = {code: table.name for code, table in CONVERSION_PRESETS.items()}
        if values["conversion"]:
            conversions.setdefault(values["conversion"], values["conversion"])
        self.fields["conversion"].choices = list(conversions.items())
        usual = TILE_SIZES[default_tile_size(ruleset)]
        self.fields["tile_size"].choices = (
            [("", _("Default: %(size)s") % {"size": catalogue_text(usual.title)})]
            + [(code, catalogue_text(size.title)) for code, size in TILE_SIZES.items()]
            + [("custom", _("Other size (type it below)"))])
        if values["tile_size"] and values["tile_size"] not in TILE_SIZES:
            self.initial.update(tile_size="custom", tile_custom=values["tile_size"].replace("x", " x "))
        self.fields["default_label_stock"].choices = [
            ("", _("Default: %(stock)s") % {"stock": catalogue_text(LABEL_STOCKS[DEFAULT_TEMPLATE].title)})
        ] + [(name, catalogue_text(stock.title)) for name, stock in LABEL_STOCKS.items()]
        chosen = values["tie_breaks"]
        order = chosen + [code for code in TIE_BREAKS if code not in chosen]
        self.fields["tie_breaks"].choices = [(code, TIE_BREAKS[code].label) for code in order]
        self.tie_break_rows = [{"code": code, "label": TIE_BREAKS[code].label,
                                "description": TIE_BREAKS[code].description, "rank": i + 1}
                               for i, code in enumerate(order)]
        for setting in self.frozen:
            self.fields[FORM_FIELDS.get(setting, setting)].disabled = True

    def clean_tie_breaks(self) -> list[str]:
        """The ticked tie-breaks ordered by the number typed next to each (``rank_<code>``),
        ties kept in the page's order."""
        ticked = self.cleaned_data["tie_breaks"]
        page = [code for code, _label in self.fields["tie_breaks"].choices]

        def rank(code):
            try:
                return (int(self.data.get(f"rank_{code}", "")), page.index(code))
            except ValueError:
                return (len(page) + 1, page.index(code))

        return sorted(ticked, key=rank)

    def changes(self) -> dict:
        """The settings as :func:`tournament.event_setup.update_settings` takes them."""
        data = dict(self.cleaned_data)
        data["sessions_planned"] = data.pop("sessions")
        custom = data.pop("tile_custom", "")
        if data.get("tile_size") == "custom":
            data["tile_size"] = custom or "custom"  # "custom" alone is refused, naming the field
        return data

    def frozen_fields(self) -> dict[str, str]:
        """``{form field: why it is frozen}``."""
        return {FORM_FIELDS.get(setting, setting): why for setting, why in self.frozen.items()}


def _status_buttons(event: Event) -> list[dict]:
    return [{"status": status, "label": STATUS_BUTTONS[(event.status, status)]} for status in allowed_statuses(event)
            if (event.status, status) in STATUS_BUTTONS]


@event_view(roles=(DIRECTOR,), login=True)
def event_settings(request, event):
    """The event's settings page (director only): GET shows the form, POST saves what changed
    (:func:`tournament.event_setup.update_settings`) and comes back here. A blank public address
    is offered as the address this site is served on, or, when that is this computer's own
    (``127.0.0.1``: a phone would reach itself), as this machine's address on its network
    (:func:`tournament.venue.suggested_address`); a saved address that phones cannot open is
    named with the fix (:func:`tournament.venue.address_problem`): printing refuses it."""
    site_address = request.build_absolute_uri("/")
    if address_problem(site_address):
        site_address = suggested_address(int(request.get_port() or 80), request.scheme)
    form = SettingsForm(request.POST or None, event=event, site_address=site_address)
    if request.method == "POST" and form.is_valid():
        before = current_settings(event)
        try:
            saved = update_settings(event, actor=request.user.get_username(), **form.changes())
        except SetupError as exc:
            field = FORM_FIELDS.get(exc.field, exc.field)
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            if current_settings(saved) == before:
                messages.info(request, _("Nothing changed."))
            else:
                messages.success(request, _("Settings saved."))
            return redirect("event-settings", slug=event.slug)
    return render(request, "tournament/settings.html", {
        "event": event, "form": form, "frozen": form.frozen_fields(), "site_address": site_address,
        "address_problem": address_problem(event.base_url) if event.base_url else None,
        "status_buttons": _status_buttons(event), "status_help": STATUS_HELP.get(event.status, ""),
        "deletion_refusal": deletion_refusal(event),
    }, status=400 if form.errors else 200)


@require_POST
@event_view(roles=(DIRECTOR,), login=True)
def event_status(request, event):
    """Move the event to the posted ``status`` (:func:`tournament.event_setup.change_status`);
    back to the settings page with what happened."""
    try:
        saved = change_status(event, request.POST.get("status", ""), actor=request.user.get_username())
    except SetupError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The event is now: %(status)s.") % {"status": saved.get_status_display()})
    return redirect("event-settings", slug=event.slug)


@event_view(roles=(DIRECTOR,), login=True)
def event_delete(request, event):
    """Delete the event, after a confirmation page that says what it does and asks for the
    event's short name (:func:`tournament.event_setup.delete_event`): allowed once the event is
    finished or archived and its full export was downloaded."""
    error, status = "", 200
    if request.method == "POST":
        try:
            delete_event(event, confirm_slug=request.POST.get("confirm_slug", ""), actor=request.user.get_username())
        except SetupError as exc:
            error, status = exc.message, (400 if exc.field == "confirm_slug" else 409)
        else:
            messages.success(request, _("The event %(name)s is deleted.") % {"name": event.name})
            return redirect("home")
    refusal = deletion_refusal(event)
    return render(request, "tournament/delete.html", {
        "event": event, "error": error, "refusal": refusal,
        "seed_needed": bool(refusal) and event.status in DELETABLE and seed_would_be_lost(event),
        "can_reveal": not event.seed_revealed and sets_to_play(event) <= 0,
    }, status=status)
