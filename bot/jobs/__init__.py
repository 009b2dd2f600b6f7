"""All work as jobs: one table, one executor, one module per job kind."""
