"""Placeholder written by the lead; H1 replaces it (see /tmp/helpers/contract.md)."""

from django.http import Http404


def event_settings(request, *args, **kwargs):
    raise Http404("not built yet")


def event_status(request, *args, **kwargs):
    raise Http404("not built yet")


def event_delete(request, *args, **kwargs):
    raise Http404("not built yet")
