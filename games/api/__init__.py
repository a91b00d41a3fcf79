"""The REST API (``/api/``): thin DRF views over ``games.services`` and ``games.selectors``."""
