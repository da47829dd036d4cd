"""Result pages (travellers, per-player standings, team and player pages, standings exports)
and the director's conversion table editor, included from tournament/urls.py."""

from django.urls import path

from scoring import result_pages, venue_views

urlpatterns = [
    path("e/<slug:slug>/travellers/", result_pages.travellers, name="travellers"),
    path("e/<slug:slug>/travellers/<int:session>/<int:set_no>/", result_pages.traveller, name="traveller"),
    path("e/<slug:slug>/travellers/<int:session>/<int:set_no>/fouled/", result_pages.traveller_fouled, name="traveller-fouled"),
    path("e/<slug:slug>/travellers/<int:session>/hand-records.pdf", result_pages.hand_records, name="hand-records"),
    path("e/<slug:slug>/luck/", result_pages.luck, name="luck"),
    path("e/<slug:slug>/standings/players/", result_pages.players, name="players"),
    path("e/<slug:slug>/standings.csv", result_pages.standings_csv, name="standings-csv"),
    path("e/<slug:slug>/standings.xlsx", result_pages.standings_xlsx, name="standings-xlsx"),
    path("e/<slug:slug>/results/federation.csv", result_pages.federation_csv, name="federation-csv"),
    path("e/<slug:slug>/teams/", result_pages.teams, name="teams"),
    path("e/<slug:slug>/teams/<int:number>/", result_pages.team, name="team"),
    path("e/<slug:slug>/players/<int:number>/", result_pages.player, name="player-results"),
    path("e/<slug:slug>/entrants/<int:key>/", result_pages.entrant, name="entrant"),
    path("e/<slug:slug>/me/", result_pages.my_results, name="my-results"),
    path("e/<slug:slug>/director/venues/", venue_views.venues, name="venues"),
    path("e/<slug:slug>/director/venues/<slug:code>/package.json", venue_views.venue_package, name="venue-package"),
    path("e/<slug:slug>/director/venues/results.json", venue_views.results_bundle, name="results-bundle"),
    path("events/venue-package/", venue_views.import_venue_package, name="venue-package-import"),
    path("e/<slug:slug>/venues/<slug:code>/standings/", venue_views.venue_standings_page, name="venue-standings"),
    path("e/<slug:slug>/conversion.csv", result_pages.conversion_csv, name="conversion-csv"),
    path("e/<slug:slug>/director/conversion/", result_pages.conversion, name="conversion"),
    path("e/<slug:slug>/director/conversion/rescore/", result_pages.conversion_rescore, name="conversion-rescore"),
]
