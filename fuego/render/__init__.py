"""Pure functions of a scene: terminal maps, printable maps, forecast plots, narration text."""
