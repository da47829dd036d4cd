"""Placeholder written by the lead; H2 replaces it (see /tmp/helpers/contract.md)."""

from django.http import Http404


def rooms(request, *args, **kwargs):
    raise Http404("not built yet")


def people(request, *args, **kwargs):
    raise Http404("not built yet")


def entrants(request, *args, **kwargs):
    raise Http404("not built yet")


def team_edit(request, *args, **kwargs):
    raise Http404("not built yet")


def player_edit(request, *args, **kwargs):
    raise Http404("not built yet")


def check_in(request, *args, **kwargs):
    raise Http404("not built yet")


def room_seating(request, *args, **kwargs):
    raise Http404("not built yet")
