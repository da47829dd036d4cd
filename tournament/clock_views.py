"""Placeholder written by the lead; H4 replaces it (see /tmp/helpers/contract.md)."""

from django.http import Http404


def session_clock(request, *args, **kwargs):
    raise Http404("not built yet")


def announcement(request, *args, **kwargs):
    raise Http404("not built yet")


def projector(request, *args, **kwargs):
    raise Http404("not built yet")


def projector_json(request, *args, **kwargs):
    raise Http404("not built yet")
