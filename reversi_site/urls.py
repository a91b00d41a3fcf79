"""Top-level URL configuration: the admin, the REST API and the site's pages."""

from django.contrib import admin
from django.urls import include, path, re_path

from games.pages.errors import not_found
from games.shared.api import unknown_endpoint

handler404 = not_found
handler500 = "games.shared.api.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("", include("games.urls")),
    path("", include("games.community.urls")),
    path("", include("games.accounts.urls")),
    re_path(r"^api(?:/(?P<path>.*))?$", unknown_endpoint),
]
