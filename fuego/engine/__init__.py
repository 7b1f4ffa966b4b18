"""The fire as a character and the round that plays it: scene, events, fires, heroes, actions."""
