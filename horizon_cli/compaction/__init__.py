"""Transcript compaction: decide -> prune -> flush -> summarize -> splice.

``compact(source, name, output, Options(...))`` is the whole pipeline;
``check`` runs only the decision. See ``pipeline`` for the guarantees.
"""

from horizon_cli.compaction.pipeline import Options, Result, check, compact

__all__ = ["Options", "Result", "check", "compact"]
