"""``python -m app.serve``: serve the app (:func:`app.serve.main`).

The command is a package's ``__main__`` so that the search pool's worker
processes do not import it: a process started by multiprocessing imports
the main module of the process that started it again, unless it is a
``__main__`` of a package, and with this server's module every worker
would load the web server and the app it never uses (some 60 MB each).
"""

import sys

from app.serve import main

sys.exit(main())
