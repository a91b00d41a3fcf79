"""ASGI entry point: HTTP through Django, websockets through Channels.

The user of a websocket comes from the session cookie (Channels' ``AuthMiddlewareStack``) or
the ``Authorization: Token <key>`` header (API clients: the accounts app's
``TokenAuthMiddleware``, which sets ``scope["user"]`` and ``scope["auth"]``); then
``games.consumers.SocketGate`` lets in a token with the "read" scope, and a browser only from the
site's own origin.
"""

import os

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")

django_asgi_app = get_asgi_application()

from games.accounts.tokens import TokenAuthMiddleware  # noqa: E402
from games.consumers import SocketGate, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AuthMiddlewareStack(
            TokenAuthMiddleware(SocketGate(URLRouter(websocket_urlpatterns)))
        ),
    }
)
