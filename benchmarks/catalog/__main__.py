from .stale_index import main

raise SystemExit(main())
