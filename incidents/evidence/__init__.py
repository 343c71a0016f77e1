"""The evidence log viewer: stable line links, one page of a bundle file around a line,
terminal colours."""
