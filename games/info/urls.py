"""URLs of the information pages: ``/<slug>/`` for every page of the registry."""

from django.urls import path

from games.info import views
from games.info.registry import PAGES

app_name = "info"

urlpatterns = [
    path(f"{page.slug}/", views.info_page, {"slug": page.slug}, name=page.slug) for page in PAGES
]
