"""The library of known failures: the case data and matching an incident against it."""
