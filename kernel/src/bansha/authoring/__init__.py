"""Tools for people who write roles and boards: the scaffold of a new role or board
(``scaffold.py``) and the scenario runner (``scenario.py``). Their pytest collection is
``bansha/pytest_plugin.py``, at the top because it runs the command line.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
