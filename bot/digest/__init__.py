"""The daily digest, pure: rendering and splitting within GitHub's limits, alerts, the roll-up."""
