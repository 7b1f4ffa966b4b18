"""fuego: fire as a character for tabletop role-playing games (7th Sea's fire rules as an engine).

The package is layered; imports point down only:
dice -> tables -> building -> fire -> heroes/smoke -> rounds -> scenario -> cli and render.
"""

__version__ = "0.1.0"

# The optional compiled build: a module whose source changed since it was compiled (or any,
# with FUEGO_PURE=1) loads from its .py, not from a stale extension (fuego/_compiled.py).
from fuego import _compiled

_compiled.install()
