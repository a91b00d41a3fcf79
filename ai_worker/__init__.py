"""The CPU side of the service: the pure rules engine, the numba search, and Celery tasks."""
