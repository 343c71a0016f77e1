"""The diagnosis tree on the pages, and triage marks on its nodes."""
