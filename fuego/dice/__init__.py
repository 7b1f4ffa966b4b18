"""Dice the 7th Sea way: roll-and-keep pools, the one seeded Roller, exact odds."""
