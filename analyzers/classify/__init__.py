"""What each error line says: signatures and rules from the knowledge files, the taxonomy,
error codes, hints, and lines read with their block."""
