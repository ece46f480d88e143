"""Homebrew roles (``[[homebrew]]``): the declarations' schema and the roles built from them
(``homebrew.py``), and the kernel's cards (``cards.py``). Both are plugins the registry finds
through the ``bansha.roles`` entry points, as it finds a board's cards (kernel/pyproject.toml):
the engine never imports this layer.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
