"""The reversi game service: games, rooms, accounts, community, API and pages."""
