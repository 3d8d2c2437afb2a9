"""``python -m benchmarks.similo``."""

import sys

from .run import main

sys.exit(main())
