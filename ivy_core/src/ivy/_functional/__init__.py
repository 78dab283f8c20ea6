"""Core-level functions: they work on functions and nests, on top of backend primitives."""
