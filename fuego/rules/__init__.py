"""The rules as data: every number of the core rules (tables) and the settings a scenario changes."""
