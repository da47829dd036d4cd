"""The director's day (docs/director-guide.md): event settings and lifecycle, rooms, people, check-in,
substitutions, penalties, the session clock and projector, itineraries. Included from
tournament/urls.py."""

from django.urls import path

from scoring import adjustment_views
from tournament import clock_views, itinerary_views, people_views, event_settings_views, substitution_views, token_views

urlpatterns = [
    path("e/<slug:slug>/director/settings/", event_settings_views.event_settings, name="event-settings"),
    path("e/<slug:slug>/director/status/", event_settings_views.event_status, name="event-status"),
    path("e/<slug:slug>/director/delete/", event_settings_views.event_delete, name="event-delete"),
    path("e/<slug:slug>/director/rooms/", people_views.rooms, name="rooms"),
    path("e/<slug:slug>/director/people/", people_views.people, name="people"),
    path("e/<slug:slug>/director/api-tokens/", token_views.api_token_list, name="api-tokens"),
    path("e/<slug:slug>/director/api-tokens/<int:token_id>/revoke/", token_views.api_token_revoke, name="api-token-revoke"),
    path("e/<slug:slug>/director/entrants/", people_views.entrants, name="entrants"),
    path("e/<slug:slug>/director/teams/<int:team_id>/", people_views.team_edit, name="team-edit"),
    path("e/<slug:slug>/director/players/<int:player_id>/", people_views.player_edit, name="player-edit"),
    path("e/<slug:slug>/director/check-in/<int:number>/", people_views.check_in, name="check-in"),
    path("e/<slug:slug>/director/check-in/<int:number>/board.json", people_views.check_in_board, name="check-in-board"),
    path("e/<slug:slug>/card/<int:number>/<str:token>/", people_views.card_check_in, name="card-check-in"),
    path("e/<slug:slug>/seating/<int:number>/rooms/", people_views.room_seating, name="room-seating"),
    path("e/<slug:slug>/director/substitute/<int:number>/", substitution_views.substitute, name="substitute"),
    path("e/<slug:slug>/director/penalties/", adjustment_views.penalties, name="penalties"),
    path("e/<slug:slug>/director/counters/", adjustment_views.fixed_counters, name="fixed-counters"),
    path("e/<slug:slug>/director/penalties/<int:adjustment_id>/undo/", adjustment_views.penalty_undo, name="penalty-undo"),
    path("e/<slug:slug>/director/clock/<int:number>/", clock_views.session_clock, name="session-clock"),
    path("e/<slug:slug>/director/announcement/", clock_views.announcement, name="announcement"),
    path("e/<slug:slug>/projector/", clock_views.projector, name="projector"),
    path("e/<slug:slug>/projector.json", clock_views.projector_json, name="projector-json"),
    path("e/<slug:slug>/find/", itinerary_views.find_seat, name="find-seat"),
]
