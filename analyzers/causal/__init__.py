"""Which error started it: the first causal error, the culprit ranks (ranks waited on, ranks
that stalled), the label of a first error no signature names, and the alternatives the
evidence allows."""
