"""Models of the community features (spec C1-C5); registered in the ``games`` app."""
