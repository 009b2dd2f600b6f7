"""The command-line tools: serve, migrate, publish, and the offline digest, classify and eval."""
