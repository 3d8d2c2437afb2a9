from .throughput import main

raise SystemExit(main())
