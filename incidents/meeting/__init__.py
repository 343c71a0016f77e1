"""The meeting view: the filtered incident list walked one incident per screen, with the
facts a triage meeting talks about and the triage fields it changes."""
