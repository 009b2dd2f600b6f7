"""What every part runs on: the clock, logs, metrics and background loops."""
