"""URLs of the community pages and API."""

urlpatterns: list = []
