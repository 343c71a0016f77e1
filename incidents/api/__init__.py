"""The JSON API for CI jobs: incidents, cases, and JSON errors under /api/."""
