"""Accounts (spec M5): sign-up, log-in and log-out pages, player profiles and the Elo rating."""
