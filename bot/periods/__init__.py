"""A repository's periods: its digest days (time zone and cutoff) and its roll-up weeks."""
