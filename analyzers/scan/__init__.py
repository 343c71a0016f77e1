"""The per-file pass: one member's events, facts and checkpoints, the sink parsers report to,
scanner processes on all cores (and their lifetime), error storms, and the compressed line
store the log viewer reads."""
