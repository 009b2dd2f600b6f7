"""`python -m bot eval --corrections OWNER/NAME`: a repository's `/digest rate` corrections as a
labelled set, one `bot eval` label a line on stdout."""

from __future__ import annotations

import asyncio
import json
import sys

from bot.settings import MissingSetting, Settings
from bot.store import Store
from bot.store.repos import config_of


def command(settings: Settings, full_name: str) -> int:
    """Write the labels of the repository's corrections (the database of DATABASE_URL)."""

    async def run() -> list[str]:
        store = await Store.open(settings.database_url)
        try:
            repo = await store.repos.by_name(full_name)
            if repo is None:
                raise MissingSetting(f"the App has not seen {full_name} in DATABASE_URL")
            schedule = config_of(repo.config, settings.default_language).schedule
            return [
                json.dumps(
                    {
                        "sha": rated.rating.sha,
                        "title": rated.title,
                        "importance": rated.rating.importance,
                        "repo": repo.full_name,
                        "day": schedule.day_of(rated.landed_at).isoformat(),
                        "why": rated.rating.reason,
                    },
                    ensure_ascii=False,
                )
                for rated in await store.ratings.of_repo(repo.id)
            ]
        finally:
            await store.close()

    lines = asyncio.run(run())
    sys.stdout.buffer.write("".join(f"{line}\n" for line in lines).encode("utf-8"))
    sys.stdout.flush()
    return 0
