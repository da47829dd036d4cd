"""URL configuration: public pages, director pages, table entry, the REST API and its schema."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from scoring import api as scoring_api
from scoring import table_views
from scoring import views as scoring_views
from tournament import api as tournament_api
from tournament import people_views
from tournament import views
from walls import views as walls_views

router = DefaultRouter()
router.register("events", tournament_api.EventViewSet, basename="event")
router.register(r"events/(?P<event_slug>[-\w]+)/results", scoring_api.ResultViewSet, basename="result")

urlpatterns = [
    # The API first: result entry is the hottest path, and Django tries the patterns in order
    # (no other pattern begins with "api/")
    path("api/", include(router.urls)),
    path("api/events/<slug:event_slug>/standings/", scoring_api.StandingsView.as_view(), name="api-standings"),
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/invitations/", people_views.invitations, name="invitations"),
    # Django's language switch without the CSRF check: the language form on every page then holds
    # no token, and a visitor's page is the same bytes for every visitor (tournament.cache);
    # a forged request can only change the language a browser shows (docs/security.md)
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("events/new/", views.new_event, name="new-event"),
    path("first-director/", views.first_director, name="first-director"),
    path("venue-certificate.crt", views.venue_certificate, name="venue-certificate"),
    path("e/<slug:slug>/", views.event_page, name="event"),
    path("e/<slug:slug>/standings/", scoring_views.standings, name="standings"),
    path("e/<slug:slug>/entry/", scoring_views.entry, name="entry"),
    path("e/<slug:slug>/director/", views.director, name="director"),
    path("e/<slug:slug>/director/live/", table_views.live, name="live"),
    path("e/<slug:slug>/director/live.json", table_views.live_json, name="live-json"),
    path("e/<slug:slug>/table/<int:table_id>/", table_views.table_page, name="table"),
    path("e/<slug:slug>/table/<int:table_id>/confirm/<int:result_id>/", table_views.table_confirm, name="table-confirm"),
    path("e/<slug:slug>/results/<int:result_id>/", table_views.result_detail, name="result"),
    path("e/<slug:slug>/entry/login/", table_views.table_login, name="event-table-login"),
    path("e/<slug:slug>/entry/login/<str:code>", table_views.table_login, name="event-table-login-code"),
    path("entry/login/", table_views.table_login, name="table-login"),
    path("entry/login/<str:code>", table_views.table_login, name="table-login-code"),
    path("entry/scan/<path:payload>", table_views.scan, name="scan"),
    path("sw.js", table_views.service_worker, name="service-worker"),
    path("e/<slug:slug>/table/<int:table_id>/call/", table_views.table_call, name="table-call"),
    path("e/<slug:slug>/table/<int:table_id>/clock.json", table_views.table_clock_json, name="table-clock"),
    path("e/<slug:slug>/table/<int:table_id>/extra-time/", table_views.table_extra_time, name="table-extra-time"),
    path("e/<slug:slug>/director/calls/", table_views.director_calls, name="director-calls"),
    path("e/<slug:slug>/director/calls.json", table_views.director_calls_json, name="director-calls-json"),
    path("e/<slug:slug>/director/calls/<int:call_id>/answer/", table_views.director_call_answer, name="director-call-answer"),
    path("e/<slug:slug>/director/prepare/", views.prepare_session, name="prepare-session"),
    path("e/<slug:slug>/director/commitment/", views.walls_commitment, name="walls-commitment"),
    path("e/<slug:slug>/director/reveal/", views.reveal, name="reveal-seed"),
    path("e/<slug:slug>/export.json", views.event_export, name="event-export"),
    path("e/<slug:slug>/director/export-with-seed.json", views.event_export_secret, name="event-export-secret"),
    path("e/<slug:slug>/prints/", walls_views.print_request, name="print-request"),
    path("e/<slug:slug>/prints/status/", walls_views.print_status, name="print-status"),
    path("e/<slug:slug>/prints/<int:job_id>/", walls_views.print_download, name="print-download"),
    path("e/<slug:slug>/prints/<int:job_id>/retry/", walls_views.print_retry, name="print-retry"),
    path("", include("scoring.urls_results")),
    path("", include("walls.urls_walls")),
    path("", include("tournament.urls_seating")),
    path("", include("tournament.urls_director")),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("favicon.ico", RedirectView.as_view(url=settings.STATIC_URL + "favicon.svg", permanent=True), name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
