"""`python -m ranklens_cli`, for an image where the console script is not on PATH."""

import sys

from ranklens_cli.cli import main

sys.exit(main())
