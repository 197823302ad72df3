"""IP literals in every spelling a resolver might accept, and the IPv4 hidden inside IPv6.

Stdlib only and allocation-light: these run on every candidate host word.

The IPv4 reader follows ``inet_aton`` (1-4 parts; decimal, ``0x`` hex or
leading-zero octal; the last part fills the remaining bytes) and, to fail
closed, *wraps* over-long values modulo their field width instead of
rejecting them: some clients do so (``7147006462`` -> ``169.254.169.254``).
"""

from __future__ import annotations

import ipaddress
import re

IPv4 = ipaddress.IPv4Address
IPv6 = ipaddress.IPv6Address

_HEX_PART = re.compile(r"0[xX][0-9a-fA-F]*\Z")
_OCT_PART = re.compile(r"0[0-7]+\Z")
_DEC_PART = re.compile(r"[0-9]+\Z")
_FIELD_MASK = {1: 0xFFFFFFFF, 2: 0xFFFFFF, 3: 0xFFFF, 4: 0xFF}


def _part_value(part: str) -> int | None:
    if _DEC_PART.match(part):
        if len(part) > 1 and part[0] == "0":
            return int(part, 8) if _OCT_PART.match(part) else None
        return int(part)
    if _HEX_PART.match(part):
        return int(part[2:] or "0", 16)
    return None


def parse_ipv4(text: str) -> IPv4 | None:
    """``text`` read the way ``inet_aton`` would (with modular wrap of the last part), else None."""
    parts = text.split(".")
    if len(parts) > 4:
        return None
    values = []
    for part in parts:
        value = _part_value(part)
        if value is None:
            return None
        values.append(value)
    *head, last = values
    if any(value > 255 for value in head):
        return None
    number = last & _FIELD_MASK[len(values)]
    for index, value in enumerate(head):
        number |= value << (24 - 8 * index)
    return IPv4(number)


def looks_numeric_host(text: str) -> bool:
    """Cheap test: only digits, dots and hex letters/x -- the shapes :func:`parse_ipv4` can accept."""
    return bool(text) and text[0].isdigit() and _NUMERIC_SHAPE.match(text) is not None


_NUMERIC_SHAPE = re.compile(r"[0-9a-fA-FxX.]+\Z")


def parse_ipv6(text: str) -> IPv6 | None:
    """An IPv6 literal without brackets or zone; a trailing IPv4 part may use any inet_aton spelling."""
    if ":" not in text:
        return None
    try:
        return IPv6(text)
    except ValueError:
        pass
    head, sep, tail = text.rpartition(":")
    if not sep or "." not in tail:
        return None
    v4 = parse_ipv4(tail)
    if v4 is None:
        return None
    packed = v4.packed
    rewritten = f"{head}:{packed[0]:02x}{packed[1]:02x}:{packed[2]:02x}{packed[3]:02x}"
    try:
        return IPv6(rewritten)
    except ValueError:
        return None


# Bit offsets of an IPv4 address embedded by RFC 6052 (NAT64) for each prefix
# length; /32../64 skip the reserved "u" octet (bits 64-71).
_RFC6052_LAYOUTS = ((32, None), (40, 72), (48, 72), (56, 72), (72, None), (96, None))


def _bits(value: int, start: int, length: int) -> int:
    return (value >> (128 - start - length)) & ((1 << length) - 1)


def _rfc6052_candidates(value: int) -> list[int]:
    out = []
    for start, resume in _RFC6052_LAYOUTS:
        if resume is None:
            out.append(_bits(value, start, 32))
        else:
            first = 64 - start  # bits before the u octet
            out.append((_bits(value, start, first) << (32 - first)) | _bits(value, resume, 32 - first))
    return out


def embedded_ipv4(ip: IPv6) -> list[IPv4]:
    """Every IPv4 address an IPv6 literal may carry: mapped, compatible, 6to4, Teredo, NAT64 layouts.

    Deliberately generous (fail closed): an operator-chosen NAT64 prefix can sit in
    front of any address, so every RFC 6052 position is reported.
    """
    value = int(ip)
    out = [IPv4(candidate) for candidate in _rfc6052_candidates(value)]
    if ip.ipv4_mapped is not None:
        out.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        out.append(ip.sixtofour)
    if ip.teredo is not None:
        out.extend(ip.teredo)
    return out
