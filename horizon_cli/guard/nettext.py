"""Endpoints named inside code payloads: ``python -c``, ``perl -e``, ``node -e``, ``awk``, heredoc bodies.

Code is not shell: words are cut at quotes, parentheses and commas, escapes such
as ``\\x31`` are also read decoded, and quoted literals count as hosts only when
they look like one (a full dotted quad, an IPv6 literal, a dotted name with a
real-looking TLD), so ``'package.json'`` and ``'1.2.3'`` stay data.
"""

from __future__ import annotations

import re

from horizon_cli.guard.hosts import Endpoint, is_loopback, is_metadata, parse_host
from horizon_cli.guard.netscan import dedupe, plausible, scan_word

# Code payloads: quoted literals, dotted quads outside quotes, and token boundaries.
_QUOTED = re.compile(r"(['\"])([^'\"\s]{1,253})\1")
_DOTTED4 = re.compile(r"(?<![\w.])(?:0[xX][0-9a-fA-F]+|\d+)(?:\.(?:0[xX][0-9a-fA-F]+|\d+)){3}(?![\w.])")
_TOKEN_SPLIT = re.compile(r"[\s'\"`(),;{}]+")
_ESCAPE = re.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|([0-7]{1,3})|(.))", re.S)


def _unescape(text: str) -> str:
    def sub(match: re.Match) -> str:
        hex2, hex4, octal, other = match.groups()
        if hex2 or hex4:
            return chr(int(hex2 or hex4, 16))
        if octal:
            return chr(int(octal, 8) & 0xFF)
        return other

    return _ESCAPE.sub(sub, text)


def _quoted_literal(literal: str, out: list[Endpoint]) -> None:
    ep = parse_host(literal)
    if ep is None:
        return
    if ep.ip is not None:
        # '1.2.3' is a version string; only a full dotted quad (or any metadata spelling) counts.
        if literal.rstrip(".").count(".") == 3 or ":" in literal or is_metadata(ep):
            out.append(ep)
    elif is_loopback(ep) or plausible(ep, literal) and "." in ep.host:
        out.append(ep)


def endpoints_in_text(text: str) -> list[Endpoint]:
    """Endpoints named anywhere in a code payload (``python -c``, ``perl -e``, ``node -e``, ``awk``).

    URLs, ``/dev/tcp`` paths, ``host:port`` tokens, quoted host/IP literals (``host:'evil.example.com'``),
    unquoted dotted quads that spell a metadata address; escapes (``\\x31``) are also read decoded.
    """
    out: list[Endpoint] = []
    variants = [text]
    if "\\" in text:
        variants.append(_unescape(text))
    for variant in variants:
        for token in _TOKEN_SPLIT.split(variant):
            if token:
                out.extend(scan_word(token))
        literals: list[Endpoint] = []
        for match in _QUOTED.finditer(variant):
            literal = match.group(2)
            if ":" not in literal and "/" not in literal:
                _quoted_literal(literal, literals)
        for match in _DOTTED4.finditer(variant):
            ep = parse_host(match.group(0))
            if ep is not None and is_metadata(ep):
                literals.append(ep)
        seen = {ep.host for ep in out}
        out.extend(ep for ep in literals if ep.host not in seen)
    return dedupe(out)
