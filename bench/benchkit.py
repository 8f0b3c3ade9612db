"""What the benchmark scripts share: where and when their numbers were taken.

>>> sorted(machine())
['cpu_count', 'date', 'load_average_1m', 'platform', 'python']
"""

from __future__ import annotations

import datetime
import os
import platform
from typing import Any


def machine() -> dict[str, Any]:
    """The machine, the Python, the time (UTC) and the load when the numbers were taken."""
    return {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "engine": engine_build(),
    }


def engine_build() -> str:
    """Which runtime the numbers are of: the mypyc-compiled one (``make compiled``, an
    installed wheel) or the pure-Python one."""
    try:
        import rulecraft.runtime.engine as engine
    except ImportError:
        return "unknown"
    return "pure Python" if str(engine.__file__).endswith(".py") else "compiled (mypyc)"
