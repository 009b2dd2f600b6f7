"""GitHub access; it imports nothing, so the offline path reads `limits` without aiohttp."""
