"""fuego: fire as a character for tabletop role-playing games (7th Sea's fire rules as an engine).

The package is layered; imports point down only:
dice -> tables -> building -> fire -> heroes/smoke -> rounds -> scenario -> cli and render.
"""

__version__ = "0.1.0"
