"""Placeholder written by the lead; H3 replaces it (see /tmp/helpers/contract.md)."""

from django.http import Http404


def penalties(request, *args, **kwargs):
    raise Http404("not built yet")


def penalty_undo(request, *args, **kwargs):
    raise Http404("not built yet")
