"""``python -m benchmarks.relocation``."""

import sys

from .run import main

sys.exit(main())
