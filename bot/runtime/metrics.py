"""Prometheus metrics, one registry per app (no process-global state), served at `/metrics`."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info

from bot import __version__


class Metrics:
    """Every metric the App exports."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        # Exported as `commit_digest_build_info{version="…"} 1`: join it to any series to
        # see which release produced it.
        self.build_info = Info("commit_digest_build", "The running release.", registry=r)
        self.build_info.info({"version": __version__})
        self.deliveries = Counter(
            "commit_digest_deliveries",
            "Webhook deliveries answered, by event, HTTP status and outcome.",
            ["event", "status", "outcome"],
            registry=r,
        )
        self.webhook_stored_seconds = Histogram(
            "commit_digest_webhook_stored_seconds",
            "Time from a delivery's arrival to its commits durably stored (the 202).",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
            registry=r,
        )
        self.oldest_waiting_job = Gauge(
            "commit_digest_oldest_waiting_job_seconds",
            "How long the job due longest has waited to be claimed (0 when none waits), "
            "at scrape time.",
            registry=r,
        )
        self.commits = Gauge(
            "commit_digest_commits",
            "Stored commits by state, read from the database at scrape time.",
            ["state"],
            registry=r,
        )
        self.jobs = Gauge(
            "commit_digest_jobs",
            "Jobs by kind and state (failed ones say why in the job table), at scrape time.",
            ["kind", "state"],
            registry=r,
        )
        self.analysis_seconds = Histogram(
            "commit_digest_analysis_seconds",
            "Time to analyse one commit, by analyser kind.",
            ["analyzer"],
            buckets=(0.001, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120),
            registry=r,
        )
        self.llm_tokens = Counter(
            "commit_digest_llm_tokens",
            "LLM tokens used, by direction (input or output).",
            ["direction"],
            registry=r,
        )
        self.llm_cached_tokens = Counter(
            "commit_digest_llm_cached_input_tokens",
            "LLM input tokens the provider served from its prefix cache (part of input).",
            registry=r,
        )
        self.llm_cost = Counter(
            "commit_digest_llm_estimated_cost",
            "Estimated LLM cost at the LLM_PRICE_* settings, in their currency.",
            registry=r,
        )
        self.analysis_routes = Counter(
            "commit_digest_analysis_routes",
            "Commits by how their analyser was chosen (llm, rules-sure, budget, cap, reused, …).",
            ["route"],
            registry=r,
        )
        self.analysis_fallbacks = Counter(
            "commit_digest_analysis_fallbacks",
            "LLM analyses that fell back to the rules analyser, by reason.",
            ["reason"],
            registry=r,
        )
        self.llm_claims_dropped = Counter(
            "commit_digest_llm_claims_dropped",
            "Claims of LLM answers the fact guard dropped as unsupported by the commit, by what "
            "had no support (code, identifier, flag, path, number, hardware, link).",
            ["kind"],
            registry=r,
        )
        self.github_calls = Counter(
            "commit_digest_github_calls",
            "GitHub API calls, by method and HTTP status (0 for a network error).",
            ["method", "status"],
            registry=r,
        )
        self.github_reachable = Gauge(
            "commit_digest_github_reachable",
            "1 when the last GitHub call got an answer below 500, 0 when it got a network "
            "error, a timeout or a 5xx; NaN before the first call.",
            registry=r,
        )
        self.github_reachable.set(float("nan"))
        self.github_rate_limit_waits = Counter(
            "commit_digest_github_rate_limit_waits",
            "Waits for GitHub rate limits, by kind (primary or secondary).",
            ["kind"],
            registry=r,
        )
        self.github_rate_limit_wait_seconds = Counter(
            "commit_digest_github_rate_limit_wait_seconds",
            "Seconds spent waiting for GitHub rate limits.",
            registry=r,
        )
        self.digests = Counter(
            "commit_digest_digests",
            "Digests by outcome (published, skipped, failed, addendum).",
            ["outcome"],
            registry=r,
        )
        self.alerts = Counter(
            "commit_digest_alerts",
            'Alerts by outcome (posted, folded into the day\'s "more alerts" post, failed).',
            ["outcome"],
            registry=r,
        )
        self.weekly = Counter(
            "commit_digest_weekly",
            "Weekly roll-ups by outcome (published, skipped, failed).",
            ["outcome"],
            registry=r,
        )
        self.redeliveries = Counter(
            "commit_digest_redeliveries",
            "Webhook redeliveries asked of GitHub, by outcome (asked, refused, deferred).",
            ["outcome"],
            registry=r,
        )
