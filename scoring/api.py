"""REST API for results and standings (DRF). Thin: every write calls a service function.

Who may call what: :class:`tournament.access.HasEventRole`. A service's refusal
(:class:`scoring.actions.errors.ResultError`) reaches the client as ``{field: [message]}`` with its
status (:mod:`tournament.api_errors`)."""

import copy

from django.http import Http404, HttpResponse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import table_access, visibility
from scoring.models import HandResult, ResultRevision
from scoring.payments import widest
from scoring.reports import cached_standings
from scoring.actions import request_keys
from scoring.actions.confirmation import confirm_result, correct_result, dispute_result
from scoring.actions.describe import result_notes
from scoring.actions.entry import find_table, set_history, submit_result
from tournament.cache import Page, cached, kept_bytes
from tournament.access import DIRECTOR, SCORER, EventFromURL, HasEventRole
from tournament.middleware import RETRY_AFTER
from tournament.permissions import is_director
from tournament.prepared import PreparedQuery
from tournament.query import int_param
from tournament.table_plan import table_plan_by_number


WIDEST = widest()
"""The widest range of each typed number over every payment rule (:func:`scoring.payments.widest`):
the schema's ``minimum``/``maximum``; the service then checks the event's rule set's own range."""


class OutcomeSerializer(serializers.Serializer):
    """How the hand ended, from which the rule set's payment rule computes the score changes and
    the deposit (:func:`scoring.actions.entry.compute_changes`). Which of the optional inputs a rule
    takes, and the hand values it accepts, are the rule's (``scoring.payments.PAYMENT_RULES``:
    ``inputs``, ``value_range``; a rule set's ``min_fan`` raises the lowest): any other input
    given, or a value out of range, is refused by the service with the field and the range. Read
    back as stored, with the notes ``entered_by_seat``, ``hand``, ``winning_tile`` and ``flags``
    (see :mod:`scoring.actions`). Whether the entry fits the wall is never in the answer
    (docs/security.md, "The wall check")."""

    kind = serializers.ChoiceField(choices=["discard", "self_draw", "draw"])
    winners = serializers.ListField(child=serializers.CharField(max_length=1), required=False, default=list, help_text=(
        "Winning seats; several on one discard only where the rule allows it (riichi, Yangzhou, MahjongSoft MCR)."))
    discarder = serializers.CharField(max_length=1, required=False, allow_null=True, allow_blank=True, default=None)
    fans = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=WIDEST.values[1], allow_null=True),
                                 required=False, default=list,
                                 help_text="The hand value of each winner (fan or han, the rule's unit), in the order of winners; "
                                           "0 for a riichi winner counted by yakuman alone. The rule's range applies.")
    fu = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=max(WIDEST.fu), allow_null=True),
                               required=False, help_text=(
        "Riichi rules: the fu of each winner (20, 25, 30, 40 ... 110), needed below mangan; 0 = not given."))
    yakuman = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=WIDEST.yakuman), required=False, help_text=(
        "Riichi and Shiragiku rules: the number of yakuman of each winner (0 = none)."))
    honba = serializers.IntegerField(min_value=0, max_value=WIDEST.honba, required=False,
                                     help_text="Counter sticks on the table before the hand: fixed per set by the director "
                                               "(0 unless fixed, scoring.payments.counters); leave it out, a different "
                                               "number is refused naming the fixed one.")
    riichi = serializers.ListField(child=serializers.CharField(max_length=1), required=False, help_text=(
        "Riichi rules: the seats that declared riichi in this hand (each pays a stick)."))
    tenpai = serializers.ListField(child=serializers.CharField(max_length=1), required=False, help_text=(
        "On a draw, the seats in tenpai (noten payment), where the rule has one."))
    shielded = serializers.ListField(child=serializers.CharField(max_length=1), required=False, help_text=(
        "Shield tile: on a self-draw, the seats whose open shield tiles hold the winner's wait (they pay nothing)."))
    open_riichi = serializers.BooleanField(required=False, help_text=(
        "Shield tile: on a self-draw, the winner declared open riichi, so the shielded seats pay too."))
    liable = serializers.CharField(max_length=1, required=False, allow_null=True, allow_blank=True, help_text=(
        "Yangzhou: the seat liable for a full flush (bao), who pays the whole win."))
    hand = serializers.CharField(required=False, allow_blank=True, max_length=200, help_text=(
        "Optional winning hand for the MCR fan check, e.g. '123456789m 11z 22z +1z' (notation: scoring/fan_check.py); "
        "a counted fan that differs from the entered one is stored and flagged."))
    winning_tile = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=3, help_text=(
        "Optional winning tile, one of the 34 kinds: 1m-9m, 1p-9p, 1s-9s, 1z-7z (East South West North White Green Red; "
        "a red five 0m/0p/0s is read as its five). It is stored as given; the director sees whether it, and the hand, "
        "could have come from the wall the table played (scoring/wall_check.py). The answer never says: an answer that "
        "varied with a wall still in play would tell the table about it. 400 (winning_tile) for a code that is no tile "
        "kind, a winning tile with a draw, or one that is not the hand's."))
    entered_by_seat = serializers.CharField(read_only=True, help_text="The seat that entered the result, if given.")
    flags = serializers.ListField(child=serializers.DictField(), read_only=True, help_text=(
        "Checks that disagree with the entry: {check: fan, entered, counted, fans, message} (the MCR fan check, from "
        "the hand typed alone)."))

    def to_representation(self, instance):
        return instance


class _FieldsOnce:
    # Mixin of a ModelSerializer: the fields it builds from the model are built once per class
    # and copied for each instance (as DRF copies declared fields), not rebuilt by model
    # introspection on every request. The fields, and so the OpenAPI schema, are the same.
    # Reading (to_representation) and validating (run_validation, but for a partial update) run
    # DRF's own code over the fields of one instance of the class bound once per process (the
    # reader), instead of copying every field for each serializer: reading or validating a value
    # changes nothing in a field (is_valid keeps its errors and data on the serializer asked),
    # and no field of these serializers reads the context (the request). What is read, and what
    # is accepted or refused with which errors, are the same: tests/test_api_representation.py.
    # (A comment, not a docstring: drf-spectacular would describe the subclasses with it.)

    def get_fields(self):
        cls = type(self)
        built = cls.__dict__.get("_built_fields")
        if built is None:
            built = super().get_fields()
            cls._built_fields = built
        return copy.deepcopy(built)

    @classmethod
    def reader(cls):
        """The instance whose bound fields every instance of ``cls`` reads with."""
        reader = cls.__dict__.get("_reader")
        if reader is None:
            reader = cls()
            _ = reader.fields  # bound now, once (two threads binding at once bind two equal copies)
            cls._reader = reader
        return reader

    def to_representation(self, instance):
        return serializers.Serializer.to_representation(self.reader(), instance)

    def run_validation(self, data=serializers.empty):
        if self.partial:
            return super().run_validation(data)
        return serializers.Serializer.run_validation(self.reader(), data)


class RevisionSerializer(_FieldsOnce, serializers.ModelSerializer):
    class Meta:
        model = ResultRevision
        fields = ["revision", "action", "status", "changes", "previous", "outcome", "actor", "reason", "at"]


class ResultSerializer(_FieldsOnce, serializers.ModelSerializer):
    """A table's result on one set. Write ``table`` (event-wide table number), ``set_no`` and either
    ``changes`` (seat → score change, points) or ``outcome``; optionally ``entered_by_seat`` and
    the entering player's ``entry_pin`` (write-only, checked against that seat's player)."""

    table = serializers.IntegerField(source="table.number", help_text="Event-wide table number of the current session.")
    session_number = serializers.IntegerField(required=False, help_text="Session; default: the latest seated session.")
    changes = serializers.DictField(
        child=serializers.IntegerField(min_value=-WIDEST.changes, max_value=WIDEST.changes), required=False, help_text=(
            "Seat (E, S, W, N) → score change in points; at most the largest hand the rule set pays times its seats, "
            "either way (the service names the rule set's own range)."))
    outcome = OutcomeSerializer(required=False, allow_null=True)
    deposit = serializers.IntegerField(min_value=0, max_value=WIDEST.deposit, required=False, help_text=(
        "With changes: the points left on the table (riichi sticks of a drawn hand); an outcome computes its own."))
    entered_by_seat = serializers.CharField(max_length=1, required=False, allow_blank=True, allow_null=True, help_text=(
        "Optional seat of the player entering; that seat's PIN cannot confirm the result."))
    entry_pin = serializers.CharField(write_only=True, required=False, allow_blank=True, allow_null=True, max_length=20,
                                      trim_whitespace=True, help_text=(
        "Optional (write-only): the entering player's own 4-digit PIN, with entered_by_seat. When given it must be the PIN "
        "of the player at that seat, else 400 (entry_pin) and nothing is stored; a wrong one counts towards the table's "
        "wrong-PIN limit like a confirmation PIN, and while the table is locked an entry with a PIN is refused (429). "
        "A scorer account bound to the table, and the director, may enter without it."))
    flags = serializers.SerializerMethodField()
    history = RevisionSerializer(source="revisions", many=True, read_only=True)

    class Meta:
        model = HandResult
        fields = ["id", "session_number", "set_no", "table", "changes", "outcome", "deposit", "entered_by_seat", "entry_pin", "flags",
                  "status", "revision", "entered_by", "confirmed_by", "created_at", "updated_at", "history"]
        read_only_fields = ["status", "revision", "entered_by", "confirmed_by", "created_at", "updated_at"]

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_flags(self, result):
        """Checks that disagree with the entry (the MCR fan check), shown to the director."""
        return result_notes(result)["flags"]

    def to_representation(self, instance):
        data = super().to_representation(instance)  # _FieldsOnce: the fields bound once
        data["entered_by_seat"] = result_notes(instance)["entered_by_seat"]
        return data


class ConfirmSerializer(serializers.Serializer):
    pin = serializers.CharField(required=False, allow_blank=True, help_text="A seated player's 4-digit PIN (not needed for the director).")
    revision = serializers.IntegerField(required=False, allow_null=True, help_text=(
        "The revision the confirming player saw; a result changed since is not confirmed (409)."))


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, default="", help_text="What is disputed.")


class CorrectSerializer(serializers.Serializer):
    """A correction: the new ``changes`` or ``outcome``, the ``reason``, and — for anyone but the
    director — the correcting player's seat and own PIN, named as on an entry
    (:class:`ResultSerializer`), checked by :func:`scoring.actions.confirmation.correct_result`."""

    changes = serializers.DictField(
        child=serializers.IntegerField(min_value=-WIDEST.changes, max_value=WIDEST.changes), required=False, help_text=(
            "Seat → score change (points), within the event's rule set's range (as on an entry)."))
    outcome = OutcomeSerializer(required=False, allow_null=True)
    deposit = serializers.IntegerField(min_value=0, max_value=WIDEST.deposit, required=False, allow_null=True, help_text=(
        "With changes: the points left on the table (default: as stored). An outcome computes its own."))
    reason = serializers.CharField(allow_blank=True, default="")
    entered_by_seat = serializers.CharField(max_length=1, required=False, allow_blank=True, allow_null=True, help_text=(
        "The seat of the player correcting: required for everyone but the director (a scorer account, a table's "
        "scorer), else 400 (entered_by_seat). The corrected result becomes that seat's entry (status entered): "
        "that seat's PIN cannot confirm it, a player of another seat confirms it. Ignored for the director."))
    entry_pin = serializers.CharField(write_only=True, required=False, allow_blank=True, allow_null=True, max_length=20,
                                      trim_whitespace=True, help_text=(
        "Write-only: the correcting player's own 4-digit PIN, with entered_by_seat; required for everyone but the "
        "director, else 400 (entry_pin). Checked like an entry PIN: one that is not the PIN of the player holding that "
        "seat on this set is refused with 400 and counts towards the table's wrong-PIN limit; while the table is "
        "locked every correction with a PIN is refused (429). Ignored for the director."))


ENTERS = (DIRECTOR, SCORER)  # enter, confirm, correct, dispute

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False, description=(
        "A key the client makes for this write (8 to 64 letters, digits and ._:-, e.g. a UUID) and sends again "
        "with every repeat of it: the write is stored at most once, and a repeat is answered 200 with the result as "
        "stored and Idempotent-Replayed: true. A key used for another write is refused (422, request_key). After "
        "a database fault the answer says whether it was stored (503 with stored false or null: send it again)."))


_RESULT_OF_EVENT = PreparedQuery(HandResult, lambda event_id, result_id: HandResult.objects.filter(
    event_id=event_id, pk=result_id).select_related("table__group__session"))  # a result without history reads it
_HISTORY_WITH_RESULT = PreparedQuery(ResultRevision, lambda event_id, result_id: ResultRevision.objects.filter(
    result__event_id=event_id, result_id=result_id).select_related("result__table__group__session").order_by("id"))


_KEY_LIMIT = 2**63  # BigAutoField's range, on every database


def _result_with_history(event_id: int, result_id: int) -> HandResult | None:
    """Result ``result_id`` of event ``event_id`` with its table, group and session, and its
    history given to it as ``prefetch_related("revisions")`` gives it (oldest first), or None
    when there is no such result. One statement: the revisions, each joined with the result
    (every stored result has at least its entry's revision); two for a result without one (an
    import's), whose history is empty. Both compiled once per process."""
    rows = _HISTORY_WITH_RESULT(event_id, result_id)
    if rows:
        result = rows[0].result
        for revision in rows:
            revision.result = result  # as prefetch_related leaves each revision: its result, the one instance
    else:
        found = _RESULT_OF_EVENT(event_id, result_id)
        if not found:
            return None
        result = found[0]
    set_history(result, rows)
    return result


class ResultViewSet(EventFromURL, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    viewsets.GenericViewSet):
    """Results of one event. The director, and scorers at their own tables, enter and confirm.
    What a caller reads follows :mod:`scoring.visibility`: the director and staff every result;
    everyone else the results of released sets plus their own tables' entries.

    A refused entry, confirmation, correction or dispute answers ``{field: [message]}`` with 400
    (409 for a conflict, with ``existing``: the stored result's id; 403 for a forbidden change;
    429 while PIN entry is locked), like a
    validation error."""

    serializer_class = ResultSerializer
    permission_classes = [IsAuthenticated, HasEventRole]
    event_roles = dict.fromkeys(("create", "confirm", "correct", "dispute"), ENTERS)
    event_role_denied = gettext_lazy("only the director and scorers of this event enter, confirm, correct or dispute results")
    table_role_denied = gettext_lazy("a scorer enters, confirms, corrects or disputes results only at the tables of their role")
    filterset_fields = ["session_number", "set_no", "status"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reads the model while building the schema
            return HandResult.objects.none()
        event = self.get_event()
        # the actions re-read the row under a lock and answer with this history and the revision
        # they add (no read after the commit): scoring.actions.confirmation
        qs = HandResult.objects.filter(event=event).select_related("table__group__session__event", "event").defer(
            "event__grouping_plan", "table__group__session__event__grouping_plan")  # EventManager
        qs = qs.prefetch_related("revisions")
        return visibility.visible_results(table_access.viewer(self.request, event), qs)

    def get_object(self):
        """The URL's result, read and checked as :meth:`get_queryset` and ``HasEventRole`` would
        (404 when the caller may not read it, then 403 when they may not act on it), with the
        visibility decided for this one row (:func:`scoring.table_access.sees_result`): a scorer
        at their own table costs no event-wide look-up of the tables they see."""
        event = self.get_event()
        key = str(self.kwargs[self.lookup_url_kwarg or self.lookup_field])
        number = int(key) if key.isascii() and key.isdigit() else None
        # a number beyond the key's range is no result's (asked of the database, it would be an error)
        result = _result_with_history(event.pk, number) if number is not None and number < _KEY_LIMIT else None
        if result is None:
            raise Http404(f"No {HandResult._meta.object_name} matches the given query.")
        result.event = result.table.group.session.event = event  # the event read once, without its grouping plan
        if not table_access.sees_result(self.request, event, result):
            raise Http404(f"No {HandResult._meta.object_name} matches the given query.")
        self.check_object_permissions(self.request, result)
        return result

    def filter_queryset(self, queryset):
        """The ``?session_number=&set_no=&status=`` filters apply to the list only."""
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def _actor(self):
        return self.request.user.get_username()

    def _keyed(self, write, created: int = status.HTTP_200_OK):
        """Answer a write made by ``write(request_key)`` (which returns the result), the request's
        key read from its ``Idempotency-Key`` header or ``request_key`` field
        (:mod:`scoring.actions.request_keys`): ``created`` for a new write, 200 with
        ``Idempotent-Replayed: true`` for a repeat. When the database connection fails during the
        write and a key was sent, the answer says what is known (:func:`~scoring.actions.request_keys.after_fault`):
        the result as stored (200, replayed) or 503 with ``stored`` false (not stored) or null
        (unknown), and ``Retry-After``; sending it again with the key is safe either way."""
        key = request_keys.key_of(self.request)
        result, known = table_access.keyed_write(self.request, key, lambda: write(key), lambda r: table_access.sees_result(
            self.request, self.get_event(), r))
        if known is not None and not known.stored:
            response = Response({"detail": known.message(), "stored": known.stored}, status=503)
            response["Retry-After"] = str(RETRY_AFTER)
            return response
        replay = getattr(result, "replayed", False)
        response = Response(self.get_serializer(result).data, status=status.HTTP_200_OK if replay else created)
        if replay:
            response["Idempotent-Replayed"] = "true"
        return response

    @extend_schema(parameters=[IDEMPOTENCY_KEY])
    def create(self, request, *args, **kwargs):
        """Enter a result (the entering roles: :data:`ENTERS`, a scorer only at their role's tables).
        201 with the result; 200 (``Idempotent-Replayed: true``) for a repeat with the same
        ``Idempotency-Key``."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data

        def enter(key):
            event = self.get_event()
            found = table_plan_by_number(event, data["table"]["number"], data.get("session_number"))  # the table and its plan at once
            table, plan = found or (find_table(event, data["table"]["number"], data.get("session_number")), None)
            self.check_object_permissions(request, table)
            return submit_result(table, data["set_no"], changes=data.get("changes"), outcome=data.get("outcome"),
                                 deposit=data.get("deposit"), actor=self._actor(), plan=plan, request_key=key,
                                 entered_by_seat=data.get("entered_by_seat") or None, entry_pin=data.get("entry_pin") or None,
                                 director=is_director(request.user, event), device=table_access.device_of(request))

        return self._keyed(enter, created=status.HTTP_201_CREATED)  # answered from the rows written

    def _act(self, body_class, act):
        """One action on the URL's result: read ``body_class`` from the request, call
        ``act(result, data, director, request_key)`` (a service function of :mod:`scoring.actions`)
        and answer with the result it returns (:meth:`_keyed`). A refusal is a FieldError for the
        API's one handler."""
        body = body_class(data=self.request.data)
        body.is_valid(raise_exception=True)

        def write(key):
            result = self.get_object()
            return act(result, body.validated_data, is_director(self.request.user, result.event), key)

        return self._keyed(write)

    @extend_schema(request=ConfirmSerializer, responses=ResultSerializer, parameters=[IDEMPOTENCY_KEY])
    @action(detail=True, methods=["post"])
    def confirm(self, request, *args, **kwargs):
        """Confirm a result with a seated player's PIN (the director without)."""
        return self._act(ConfirmSerializer, lambda result, data, director, key: confirm_result(
            result, actor=self._actor(), pin=data.get("pin"), director=director, revision=data.get("revision"),
            request_key=key, device=table_access.device_of(self.request)))

    @extend_schema(request=CorrectSerializer, responses=ResultSerializer, parameters=[IDEMPOTENCY_KEY])
    @action(detail=True, methods=["post"])
    def correct(self, request, *args, **kwargs):
        """Correct a result: the director at any time (without a PIN; once confirmed or disputed,
        with a reason); anyone else only an unconfirmed result, with the correcting player's
        ``entered_by_seat`` and ``entry_pin`` — the correction becomes that seat's entry, which a
        player of another seat confirms."""
        return self._act(CorrectSerializer, lambda result, data, director, key: correct_result(
            result, actor=self._actor(), reason=data["reason"], director=director,
            changes=data.get("changes"), outcome=data.get("outcome"), deposit=data.get("deposit"),
            entered_by_seat=data.get("entered_by_seat") or None, entry_pin=data.get("entry_pin") or None,
            request_key=key, device=table_access.device_of(self.request)))

    @extend_schema(request=DisputeSerializer, responses=ResultSerializer, parameters=[IDEMPOTENCY_KEY])
    @action(detail=True, methods=["post"])
    def dispute(self, request, *args, **kwargs):
        """Dispute a result (once confirmed, the director only)."""
        return self._act(DisputeSerializer, lambda result, data, director, key: dispute_result(
            result, actor=self._actor(), reason=data["reason"], director=director, request_key=key))


class AdjustmentSerializer(serializers.Serializer):
    """One penalty or adjustment counted on a standings row (docs/scoring.md, "Penalties and
    adjustments"): read-only, as :func:`scoring.reports.standing_rows.active_adjustments` gives it."""

    amount = serializers.IntegerField(help_text="As given, in unit.")
    unit = serializers.CharField(help_text="mp (converted points) or points (score points).")
    mp = serializers.IntegerField(help_text="Converted points it adds to the total.")
    score = serializers.IntegerField(help_text="Score points it adds to the score total.")
    session = serializers.IntegerField(allow_null=True, help_text="The session it is for; null: the whole event.")
    reason = serializers.CharField()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Null for a substitute or an entrant with no scored set.")
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="Converted points (IMP/MP), the sit-out credit included.")
    score_total = serializers.IntegerField(help_text="Sum of score changes (points of the rule set).")
    sets_played = serializers.IntegerField()
    positive_sets = serializers.IntegerField()
    tied = serializers.BooleanField()
    substitute = serializers.BooleanField(help_text="A substitute: plays and counts in the datum, never ranked.")
    sit_out_sets = serializers.IntegerField(help_text="Scored sets of the sessions the entrant sat out.")
    sit_out_points = serializers.IntegerField(
        help_text="Converted points credited for them (sit-out-average policy), already in points.")
    adjustment_points = serializers.IntegerField(
        help_text="Converted points of the director's adjustments (penalties negative), already in points.")
    adjustment_score = serializers.IntegerField(
        help_text="Score points of adjustments given in points, already in score_total.")
    adjustments = AdjustmentSerializer(many=True, help_text="Each adjustment counted, with its reason.")


API_STANDINGS = Page("api-standings", html=False)


class StandingsView(EventFromURL, APIView):
    """Public standings of an event (``?session=N`` for one session): released sets only
    (:mod:`scoring.visibility`); the director and staff add ``?all=1`` for every scored set."""

    permission_classes = [HasEventRole]  # no event_roles: everyone

    @extend_schema(responses=StandingRowSerializer(many=True))
    def get(self, request, event_slug):
        """The rows, serialised once per content version and scope, with an ETag (a poll with
        nothing new is answered 304: :class:`tournament.cache.Page`)."""
        event = self.get_event()
        session = int_param(request, "session", maximum=event.sessions_planned)
        public = table_access.standings_public(request, event)
        variant = API_STANDINGS.variant(table_access.viewer(request, event), public, session)

        def build() -> HttpResponse:
            def rows() -> list:
                return cached(event, f"api-standings:{variant}", lambda: list(StandingRowSerializer(
                    cached_standings(event, session, public=public), many=True).data), public=public)

            if getattr(request, "accepted_renderer", None) is not None and request.accepted_renderer.format == "json":
                # rendered and compressed once per version (sent compressed to a client that accepts it)
                return kept_bytes(request, event, f"api-standings.json:{variant}",
                                             lambda: JSONRenderer().render(rows()), "application/json", public=public)
            return Response(rows())

        return API_STANDINGS.respond(request, event, variant, build, public=public)
