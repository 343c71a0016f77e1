"""The diagnosis tree: its data, the facts and predicates it decides on, and the walk of one
incident through it."""
