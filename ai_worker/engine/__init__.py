"""The pure rules engine of every reversi variant (no Django, Celery or games imports)."""
