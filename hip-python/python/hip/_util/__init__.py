"""Helper types shared by all modules (hip-python's `hip._util`): `hip._util.types`.

`import hip` imports this package; `types` loads the native extension, so it is imported on
first access.
"""


def __getattr__(name):
    if name == "types":
        import importlib

        return importlib.import_module("hip._util.types")
    raise AttributeError(f"module 'hip._util' has no attribute {name!r}")
