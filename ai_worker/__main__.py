"""Command line of the engine: ``python -m ai_worker <command> ...``."""

import sys

from ai_worker.cli import main

if __name__ == "__main__":
    sys.exit(main())
