"""People and access: API tokens, login throttling and the activity log."""
