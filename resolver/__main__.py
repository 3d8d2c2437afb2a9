"""``python -m resolver``."""

import sys

from .cli import main

sys.exit(main())
