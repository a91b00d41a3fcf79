"""Top-level URL configuration: the admin, the REST API and the site's pages."""

from django.contrib import admin
from django.urls import include, path, re_path

from games.shared.api import unknown_endpoint

handler500 = "games.shared.api.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("", include("games.urls")),
    re_path(r"^api/(?P<path>.*)$", unknown_endpoint),
]
