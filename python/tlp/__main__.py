"""`python -m tlp` is the `tlp` command."""
import sys

from .cli import main

sys.exit(main())
