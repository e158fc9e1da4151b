"""`python -m rocm doctor`: what a bug report about rocm-llvm-python should contain."""

import sys

from rocm._doctor import main

sys.exit(main(sys.argv[1:]))
