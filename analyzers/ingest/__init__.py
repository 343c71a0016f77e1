"""Reading an upload: what kind of file it is, its members as streams (tar, gzip, zip),
deflate, raw bytes to clean text, and a member's kind and rank from its path."""
