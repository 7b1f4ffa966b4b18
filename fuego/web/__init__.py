"""The players' screen: a live map of the fire in a browser, for the TV at the table or the
players' phones (``fuego play FILE --screen``, ``fuego screen SAVE``; docs/gm-guide.md).

- :mod:`fuego.web.view`: what the players may know (``players_view``; their narration);
- :mod:`fuego.web.svg`: a level of that view drawn as SVG;
- :mod:`fuego.web.feed`: the table's scene kept in step with the page; a saved session's rounds;
- :mod:`fuego.web.server`: the read-only web server (starlette on uvicorn, in a thread);
- :mod:`fuego.web.assets`: the page itself.

Above :mod:`fuego.render` (its narration), below :mod:`fuego.cli`.
"""
