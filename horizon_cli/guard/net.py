"""Network normalization for ``horizon classify``: the rule engine's single import point.

"Normalize before comparing": ``curl http://2852039166/`` must not walk past a
string match for ``169.254.169.254``.  Hosts are parsed from every spelling a
client accepts (inet_aton radixes and wrap-around, IPv6 with embedded IPv4,
percent-encoding, IDNA dots, userinfo tricks) and compared as parsed values.

Stdlib only; never imports click or bashlex.
"""

from __future__ import annotations

from horizon_cli.guard.hosts import (
    Endpoint,
    host_allowed,
    is_loopback,
    is_metadata,
    parse_host,
    parse_url,
)
from horizon_cli.guard.netscan import endpoints_in_word
from horizon_cli.guard.nettext import endpoints_in_text

__all__ = [
    "Endpoint",
    "endpoints_in_text",
    "endpoints_in_word",
    "host_allowed",
    "is_loopback",
    "is_metadata",
    "parse_host",
    "parse_url",
]
