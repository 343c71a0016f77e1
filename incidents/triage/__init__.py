"""Triage: what people decide about an incident — state, owner, tags, tickets, root cause,
decision, comments — and the list that filters incidents by it."""
