"""horizon: control primitives for long-horizon AI agents.

The library modules (``guard``, ``halt``, ``compaction``, ``checkpoint``,
``transcript``, ``policy``) are importable without click; ``cli`` and
``commands`` are the thin command-line edge.
"""

__version__ = "0.1.0"
