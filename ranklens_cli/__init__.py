"""`ranklens`: upload a log bundle from a CI job and wait for its verdict.

Standard library only (urllib), so a CI image needs nothing but Python to run it; it never
imports Django or the analyzers.
"""
