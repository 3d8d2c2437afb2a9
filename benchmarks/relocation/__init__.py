"""Real-page relocation benchmark: record targets on third-party pages, mutate the pages,
render both versions in Chromium and resolve the recorded references on the changed one.

Run ``python -m benchmarks.relocation --help``; see ``README.md`` in this folder.
"""
