"""Every post the App means to have on GitHub: the ledger, a pure reconcile, the targets."""
