"""fuego: fire as a character for tabletop role-playing games (7th Sea's fire rules as an engine).

The package is layered; imports point down only (docs/architecture.md):
errors, rules, dice -> world -> engine -> modules -> scenario -> table, forecast -> render -> cli.
"""

__version__ = "0.1.0"
