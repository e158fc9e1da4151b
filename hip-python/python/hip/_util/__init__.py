"""Helper types shared by all modules (hip-python's `hip._util`)."""
