"""The case library: its models, search (full text, typos, highlighting), pages, forms, admin
and promotion of incidents to cases."""
