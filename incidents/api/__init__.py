"""The JSON API for CI jobs and scripts (django-ninja): incidents, triage, cases, and JSON
errors under /api/; its OpenAPI schema at /api/schema/."""
