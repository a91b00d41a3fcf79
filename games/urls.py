from django.urls import include, path

from . import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("", include("games.info.urls")),
    path("", include("games.pages.urls")),
]
