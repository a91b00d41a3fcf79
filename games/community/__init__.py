"""Community features: counters, ratings, comments, bug reports and moderation (spec C1-C5)."""
