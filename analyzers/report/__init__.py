"""The diagnosis and its words: assembling it, rank-pattern rules, confidence, root-cause
sentence, next actions, fingerprint and the text summary."""
