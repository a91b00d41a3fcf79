"""The CPU levels (spec M1, G2): the one list the search, the web app and the tools share.

Plain data with no numba import, so the web process can read it without loading the kernels.
What each level does is described in ``ai_worker.search``.
"""

EASY = "easy"
NORMAL = "normal"
STRONG = "strong"

LEVELS = (EASY, NORMAL, STRONG)
"""Every CPU level, weakest first."""

DEFAULT_LEVEL = NORMAL
"""The level a new CPU opponent gets when none is chosen."""

HINT_LEVEL = STRONG
"""The hint is the strong CPU's move (G2)."""
