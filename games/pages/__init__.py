"""Server-rendered pages of the web interface: setup, game and room pages.

The pages are thin shells: all live state comes from the REST API and the websocket, read by
the JavaScript modules in ``games/static/games/js``.
"""
