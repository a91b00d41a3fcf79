"""ASGI entry point: HTTP through Django, websockets through Channels.

The user of a websocket comes from the session cookie (browsers, from the site's own origin
only) or the ``Authorization: Token <key>`` header (API clients): ``games.consumers.SocketGate``.
"""

import os

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")

django_asgi_app = get_asgi_application()

from games.consumers import SocketGate, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AuthMiddlewareStack(SocketGate(URLRouter(websocket_urlpatterns))),
    }
)
