"""Training of the pattern evaluation (``python -m ai_worker train``), numpy only.

1. ``positions``: games of random play and of self-play by the current engine (the
   hand-written evaluation one ply deep, with random moves mixed in), every position with a
   move kept once.
2. Per phase, from the end of the game back (``fit``): positions of the phase labelled by the
   exact solver (phases that end at ``exact_empties`` or fewer) or by a search one phase deep
   whose leaves are valued by the phases trained already; then least squares by conjugate
   gradients, ridge-regularised towards the phase trained before.
3. The tables go to a weights file (``ai_worker.weights``).

Every stage is saved in the run's directory, so a run stopped midway resumes where it stopped;
the same settings and seed give the same weights.
"""
