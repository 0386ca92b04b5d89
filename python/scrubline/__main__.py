"""``python -m scrubline`` runs the ``scrubline`` command."""

import sys

from scrubline.cli.scrubline import main

sys.exit(main())
