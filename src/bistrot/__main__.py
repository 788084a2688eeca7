"""``python -m bistrot`` runs the command line."""

import sys

from bistrot.cli import main

sys.exit(main())
