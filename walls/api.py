"""REST API for wall sets: tiles only for staff, or once the set is public (hand record)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import table_access, visibility
from tournament.access import EventFromURL, HasEventRole


class WallSetSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    set = serializers.IntegerField()
    public = serializers.BooleanField(help_text="True once the set is released: every table of its session has a confirmed result on it.")
    piles = serializers.DictField(child=serializers.ListField(child=serializers.CharField()), allow_null=True,
                                  help_text="Pile name → tiles in slot order (mpsz codes); null while secret to you.")


class WallSetList(EventFromURL, APIView):
    """Wall sets of an event. Staff and the director see every wall; everyone else sees a wall's
    tiles only once it is public."""

    permission_classes = [HasEventRole]  # no event_roles: everyone

    @extend_schema(responses=WallSetSerializer(many=True))
    def get(self, request, event_slug):
        event = self.get_event()
        staff = table_access.viewer(request, event).secrets
        released = visibility.released_sets(event)
        rows = []
        for wall in event.wall_sets.all():
            public = (wall.session_number, wall.set_no) in released
            rows.append({"session": wall.session_number, "set": wall.set_no, "public": public,
                         "piles": wall.piles if (staff or public) else None})
        return Response(WallSetSerializer(rows, many=True).data)
