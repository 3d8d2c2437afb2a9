#!/usr/bin/env bash
# Install what the tests need, then run every check CI runs: ruff, mypy (strict), pytest.
# Browser tests need Debian's chromium; it is installed here when missing (as root, with apt).
# Playwright drives that chromium (executable_path): no browser of its own is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -e '.[test,vision,replay,browser,bridge,server]'

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing chromium for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "chromium could not be installed: browser tests will be skipped"
fi

python -m ruff check resolver tests benchmarks fixtures
python -m ruff format --check resolver tests benchmarks fixtures
python -m mypy
python -m pytest "$@"
