"""Binds the native modules `rocm._native` published in `sys.modules` to their packages."""

import sys


def attach(package: str) -> list:
    """Sets each published `<package>.<name>` module as attribute of the package; the names."""
    parent = sys.modules[package]
    prefix = package + "."
    found = []
    for name, module in list(sys.modules.items()):
        if (
            name.startswith(prefix)
            and "." not in name[len(prefix) :]
            and not hasattr(parent, name[len(prefix) :])
        ):
            setattr(parent, name[len(prefix) :], module)
            found.append(name[len(prefix) :])
    return sorted(found)
