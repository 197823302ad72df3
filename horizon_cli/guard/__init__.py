"""guard: classify shell commands as allow < gate < deny without running them.

Pipeline: ``parse`` (bashlex, safe rewrites, fallback scanner) turns text into
a neutral :class:`~horizon_cli.guard.model.ParsedScript`; ``engine`` applies
the policy's rules to every segment, recursing into nested commands.
"""
