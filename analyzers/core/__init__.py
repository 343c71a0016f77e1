"""Values every stage shares: the report types, input errors, analyze() options and checked
reading of the YAML knowledge files. Imports nothing else."""
