"""URLs of the web pages (setup, game, room) and the language switch."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.setup, name="setup"),
    path("lobby/", views.lobby, name="lobby"),
    path("watch/", views.watch, name="watch"),
    path("play/<public_id:public_id>/", views.play, name="play"),
    path("room/<str:code>/", views.room, name="room"),
    path("i18n/", include("django.conf.urls.i18n")),
]
