"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets are accepted only from the allowed hosts' origins; the user comes from the session
cookie (browsers) or ``?token=`` (API clients).
"""

import os

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")

django_asgi_app = get_asgi_application()

from games.consumers import TokenAuthMiddleware, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)
