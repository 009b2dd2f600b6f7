"""The publishing jobs: the scheduler that arms them, the day, the alerts, the week's roll-up."""
