"""Pieces every app of the site shares: the one error hierarchy and the API's common parts."""
