"""Placeholder written by the lead; H4 replaces it (see /tmp/helpers/contract.md)."""

from django.http import Http404


def find_seat(request, *args, **kwargs):
    raise Http404("not built yet")
