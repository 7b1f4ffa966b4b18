"""The reference for the round benchmark: a forest-fire model written the way Mesa's example is.

Mesa's forest-fire example (mesa-examples, ``forest_fire``) is a grid of tree agents, one per
cell, each Fine, Burning or Burned out; every step shuffles and steps *every* agent, a burning
tree sets its Fine neighbours alight and burns out, and a data collector counts the three
states. This is that design, written here for fuego's benchmark (not a copy of the example):
Mesa 3's ``OrthogonalMooreGrid`` cell space, ``FixedAgent`` trees, ``shuffle_do`` activation and
a ``DataCollector`` whose reporters count the states with a plain loop over the agents, as the
example's ``count_type`` does (and the step counts the burning trees once more to know whether
to stop). Counting with Mesa's ``AgentSet.select`` instead makes a step about 40 % slower: the
benchmark used that until 29 Nov 2026, which flattered fuego's ratio. Fire starts along the
left edge, as in the example.
"""

from __future__ import annotations

import mesa
from mesa.discrete_space import FixedAgent, OrthogonalMooreGrid

FINE, BURNING, BURNED_OUT = "Fine", "Burning", "Burned out"


class Tree(FixedAgent):
    """One tree in one cell."""

    def __init__(self, model: mesa.Model, cell) -> None:
        super().__init__(model)
        self.cell = cell
        self.condition = FINE

    def step(self) -> None:
        if self.condition == BURNING:
            for other in self.cell.neighborhood.agents:
                if other.condition == FINE:
                    other.condition = BURNING
            self.condition = BURNED_OUT


def count(model: mesa.Model, condition: str) -> int:
    """Trees in ``condition``, counted as the example counts them (a loop over the agents)."""
    n = 0
    for tree in model.agents:
        if tree.condition == condition:
            n += 1
    return n


class Forest(mesa.Model):
    """``width`` x ``height`` cells, a tree in each with probability ``density``."""

    def __init__(self, width: int = 100, height: int = 100, density: float = 0.65,
                 seed: int | None = 1) -> None:
        super().__init__(seed=seed)
        self.grid = OrthogonalMooreGrid((width, height), capacity=1, torus=False,
                                        random=self.random)
        self.collector = mesa.DataCollector(
            {c: (lambda m, c=c: count(m, c)) for c in (FINE, BURNING, BURNED_OUT)})
        for cell in self.grid.all_cells:
            if self.random.random() < density:
                tree = Tree(self, cell)
                if cell.coordinate[0] == 0:
                    tree.condition = BURNING
        self.running = True
        self.collector.collect(self)

    def step(self) -> None:
        self.agents.shuffle_do("step")
        self.collector.collect(self)
        if count(self, BURNING) == 0:
            self.running = False
