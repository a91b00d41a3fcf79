"""A web or worker process puts what it loaded at start out of the garbage collector's reach
(reversi_site/process.py): a full collection then walks only what was made since."""

import gc
import os
import subprocess
import sys

from games import tasks
from tests.servers import ROOT

COUNTS = "import gc\nprint(gc.get_freeze_count(), len(gc.get_objects()))"


def test_a_web_process_freezes_its_code_and_views_once_loaded() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", f"import reversi_site.asgi\n{COUNTS}"],
        cwd=ROOT,
        env=os.environ | {"DJANGO_SETTINGS_MODULE": "reversi_site.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    frozen, tracked = map(int, loaded.stdout.split())
    assert frozen > 100_000  # Django, DRF, Channels, the URL patterns' views, the engine
    assert tracked < frozen / 20  # what a full collection still walks


def test_a_worker_process_freezes_once_its_kernels_are_loaded() -> None:
    before = gc.get_freeze_count()
    try:
        tasks.warm_up_search()
        assert gc.get_freeze_count() > before
        assert len(gc.get_objects()) < gc.get_freeze_count() / 20
    finally:
        gc.unfreeze()  # this test process goes on as before
