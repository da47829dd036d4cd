"""Wall pages and API routes, included from tournament/urls.py."""

from django.urls import path, re_path

from walls import api, rebuild_views, views

urlpatterns = [
    path("e/<slug:slug>/walls/", views.wall_list, name="walls"),
    path("e/<slug:slug>/walls/<int:session>/<int:set_no>/", views.wall_detail, name="wall"),
    path("e/<slug:slug>/walls/<int:session>/<int:set_no>/reserves/", views.reserve_draw, name="reserve-draw"),
    path("e/<slug:slug>/walls/reserves/<int:reserve_id>/tables/", views.reserve_tables, name="reserve-tables"),
    # a wall sticker's QR code (walls.setcode.SetId.slot_url) and the staff's check of a built set
    path("w/<slug:slug>/<str:code>/<str:where>/", rebuild_views.sticker_slot, name="sticker-slot"),
    re_path(r"^W/(?P<key>[0-9]+)/(?P<code>[^/]+)/(?P<where>[^/]+)/?$", rebuild_views.sticker_short, name="sticker-short"),
    path("w/<slug:slug>/<str:code>/<str:seat>/check/", rebuild_views.sticker_check, name="sticker-check"),
    path("api/events/<slug:event_slug>/walls/", api.WallSetList.as_view(), name="api-walls"),
]
