"""The rank-by-rank checkpoint timeline: prepared arrays, ordering, markers, window queries,
the Plotly figure and its data endpoint."""
