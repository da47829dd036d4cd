"""Seating and movement routes, included from tournament/urls.py."""

from django.urls import path

from tournament import seating_views

urlpatterns = [
    path("e/<slug:slug>/seating/<int:number>/", seating_views.seating, name="seating"),
]
