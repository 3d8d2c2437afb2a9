"""Integrations with runtimes that act on a UI: :mod:`.playwright` (live Chromium pages
through Playwright) and :mod:`.snapshot` (the CDP answers of a page as an observation).
Nothing here is imported by ``import resolver``."""
