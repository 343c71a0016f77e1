"""Checkpoint lines: the patterns that recognise them, their raw-bytes search form, and the
column store that records every one per file."""
