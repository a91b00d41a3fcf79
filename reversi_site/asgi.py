"""ASGI entry point: HTTP through Django (``reversi_site.handlers.ASGIHandler``: each request's
synchronous code on a thread kept for the process's life), websockets through Channels.

The user of a websocket comes from the session cookie (Channels' ``AuthMiddlewareStack``) or
the ``Authorization: Token <key>`` header (API clients: the accounts app's
``TokenAuthMiddleware``, which sets ``scope["user"]`` and ``scope["auth"]``); then
``games.consumers.SocketGate`` lets in a token with the "read" scope, and a browser only from the
site's own origin.
"""

import os
from importlib import import_module

import django
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application

from games.accounts.tokens import TokenAuthMiddleware  # noqa: E402
from games.consumers import SocketGate, websocket_urlpatterns  # noqa: E402
from reversi_site.handlers import ASGIHandler  # noqa: E402
from reversi_site.process import freeze_what_is_loaded  # noqa: E402

django_asgi_app = ASGIHandler()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AuthMiddlewareStack(
            TokenAuthMiddleware(SocketGate(URLRouter(websocket_urlpatterns)))
        ),
    }
)

import_module(settings.ROOT_URLCONF)  # every view loaded now, not at the first request
freeze_what_is_loaded()
