"""The rules engine: pure Python, no Django, Celery or Channels.

The solver may run compiled (see native.py); importing the package installs the finder that
keeps a stale compiled solver from ever shadowing solver.py.
"""

from .native import install as _install_solver_finder

_install_solver_finder()
