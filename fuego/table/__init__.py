"""Play at the table: the saved session (save, resume, undo, replay) and the GM's overrides."""
