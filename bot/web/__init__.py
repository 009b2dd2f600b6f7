"""Intake: the webhook endpoint, its body and payloads, the handlers, and the health probes."""
