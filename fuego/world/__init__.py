"""The building (a networkx graph of areas, barriers and routes), its parts, paths and smoke."""
