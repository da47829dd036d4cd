"""REST API for wall sets: tiles only for staff, or once the set is public (hand record)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.models import Event
from scoring import visibility


class WallSetSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    set = serializers.IntegerField()
    public = serializers.BooleanField(help_text="True once the set is released: every table of its session has a confirmed result on it.")
    piles = serializers.DictField(child=serializers.ListField(child=serializers.CharField()), allow_null=True,
                                  help_text="Pile name → tiles in slot order (mpsz codes); null while secret to you.")


class WallSetList(APIView):
    """Wall sets of an event. Staff and the director see every wall; everyone else sees a wall's
    tiles only once it is public."""

    permission_classes = [AllowAny]

    @extend_schema(responses=WallSetSerializer(many=True))
    def get(self, request, event_slug):
        event = get_object_or_404(Event, slug=event_slug)
        staff = visibility.viewer(request, event).secrets
        released = visibility.released_sets(event)
        rows = []
        for wall in event.wall_sets.all():
            public = (wall.session_number, wall.set_no) in released
            rows.append({"session": wall.session_number, "set": wall.set_no, "public": public,
                         "piles": wall.piles if (staff or public) else None})
        return Response(WallSetSerializer(rows, many=True).data)
