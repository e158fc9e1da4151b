"""`python -m hip doctor`: what was found where; paste its output into bug reports."""

import sys

from hip._doctor import main

sys.exit(main(sys.argv[1:]))
