"""Django admin registrations."""

from games.community import admin as community_admin  # noqa: F401
