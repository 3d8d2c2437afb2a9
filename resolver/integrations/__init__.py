"""Integrations with runtimes that act on a UI: :mod:`.playwright` (live Chromium pages
through Playwright), :mod:`.snapshot` (the CDP answers of a page as an observation) and
:mod:`.snapshot_live` (a SnapshotV1 of a live page once it settled).
Nothing here is imported by ``import resolver``."""
