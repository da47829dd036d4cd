"""REST API for events (public fields only: the master seed appears once revealed)."""

from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny

from tournament.access import visible_events, visible_or_404
from tournament.models import Event


class EventSerializer(serializers.ModelSerializer):
    master_seed = serializers.SerializerMethodField(help_text="The master seed, once revealed after the event.")

    class Meta:
        model = Event
        fields = ["slug", "name", "uid", "ruleset_code", "method", "datum_method", "comparison", "sessions_planned",
                  "commitment", "public_value_source", "public_value", "seed_revealed", "master_seed"]

    def get_master_seed(self, obj) -> str | None:
        return obj.master_seed if obj.seed_revealed else None


class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """Events, public information. Drafts only for those with a role in them
    (:func:`tournament.access.visible_events`; any other request gets 404 for one)."""

    queryset = Event.objects.all()
    serializer_class = EventSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"

    def get_queryset(self):
        # one event: found among all, then refused by visible_or_404 (table logins see their draft)
        return Event.objects.all() if self.action == "retrieve" else visible_events(self.request.user)

    def get_object(self):
        return visible_or_404(self.request, super().get_object())
