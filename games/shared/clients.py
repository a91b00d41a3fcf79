"""The client's network address, as the trusted reverse proxies saw it."""

from ipaddress import ip_address

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The address of the client behind ``settings.TRUSTED_PROXY_COUNT`` reverse proxies.

    Each proxy appends the address it was reached from to ``X-Forwarded-For``, so with ``n``
    proxies the client is the n-th entry from the right; entries further left were written by
    the client and are ignored. Without proxies (or with a header shorter than expected, which
    a trusted proxy never sends) the answer is ``REMOTE_ADDR``. ``None`` when that is missing.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < proxies:
        return remote
    candidate = forwarded[-proxies]
    try:
        return str(ip_address(candidate))
    except ValueError:
        return remote
