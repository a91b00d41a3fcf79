"""numba kernels of the search (``cache=True``).

numba checks a cached kernel against its own source file only, so a kernel that inlines code
of another module would keep stale machine code after that module changes. Importing this
package therefore drops the package's numba cache whenever any kernel source differs from the
sources the cache was built from (a digest kept next to the cache).
"""

import hashlib
import os
from pathlib import Path


def _drop_stale_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for source in sorted(here.glob("*.py")):
        digest.update(source.read_bytes())
    cache = here / "__pycache__"
    stamp = cache / "kernels.sha256"
    try:
        if stamp.read_text() == digest.hexdigest():
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for pattern in ("*.nbi", "*.nbc"):
            for stale in cache.glob(pattern):
                stale.unlink(missing_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        return  # a read-only install keeps whatever cache it was built with


_drop_stale_cache()
