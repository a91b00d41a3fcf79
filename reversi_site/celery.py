"""The Celery application: broker and settings come from Django settings (``CELERY_*``)."""

import os

from celery import Celery, Task
from celery.signals import task_prerun
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")

app = Celery("reversi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each installed app's tasks module: games.tasks


@task_prerun.connect
def begin_task_as_a_request(task: Task, **kwargs: object) -> None:
    """Before each task a worker runs, what Django does before each request: the database
    connections past their ``CONN_MAX_AGE``, or left unusable by an error, are closed (the next
    query opens a fresh one), and each kept one is health-checked on its next use
    (``CONN_HEALTH_CHECKS``). The Django fixup no longer closes them after every task
    (``CELERY_DB_REUSE_MAX``). A task run eagerly is the caller's code, in its transaction:
    left alone, as the fixup leaves it."""
    if not getattr(task.request, "is_eager", False):
        close_old_connections()
