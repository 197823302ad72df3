"""Endpoints: one host parsed from any spelling, URLs, and what a host *is* (metadata, loopback, allowed).

Every host is reduced to one canonical spelling (lowercase, IDNA dots,
percent-decoded, no trailing dot; IPs in canonical text form) and addresses
are compared as parsed values, never as strings.  Public API: :mod:`horizon_cli.guard.net`.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from horizon_cli.guard.netaddr import embedded_ipv4, looks_numeric_host, parse_ipv4, parse_ipv6

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A network destination named somewhere in a command.

    ``host`` is normalized: lowercase, IDNA dots mapped, percent-decoded, trailing
    dots removed; an IP is in canonical text form (``169.254.169.254``, ``fd00:ec2::254``,
    ``::ffff:169.254.169.254``).
    """

    host: str
    ip: IPAddress | None
    port: int | None
    raw: str
    scheme: str | None = None


# --- host normalization -----------------------------------------------------------------

# Ideographic, fullwidth and halfwidth full stops all act as label separators (IDNA / UTS 46).
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
# Code points UTS 46 / nameprep map to nothing (soft hyphen, zero widths, variation selectors):
# 'meta\u00addata' is 'metadata' to a resolver.
_IGNORED = dict.fromkeys(
    [0xAD, 0x34F, 0x180B, 0x180C, 0x180D, 0x180F, 0x200B, 0x200C, 0x200D, 0x2060, 0x2064, 0xFEFF]
    + list(range(0xFE00, 0xFE10))
)
# Characters that can never be part of a host name once normalized.
_BAD_HOST = re.compile(r"[\s/\\?#@:\[\]<>\"'`{}|^%!$&()*+,;=~]")


_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def percent_decode(text: str) -> str:
    """Percent-decoding as ``urllib.parse.unquote`` does it (UTF-8, invalid bytes replaced), without its import cost."""
    return _PERCENT_RUN.sub(lambda m: bytes.fromhex(m.group(0).replace("%", "")).decode("utf-8", "replace"), text)


def _decode_text(text: str) -> str:
    if "%" in text:
        text = percent_decode(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text.translate(_IGNORED)).translate(_DOTS)
    return text


def _idna_ascii(name: str) -> str:
    """Non-ASCII names in their punycode form, so both spellings compare equal."""
    try:
        return name.encode("idna").decode("ascii")
    except (UnicodeError, ValueError):
        return name


def _strip_brackets_and_zone(text: str) -> tuple[str, bool]:
    bracketed = text.startswith("[") and text.endswith("]")
    if bracketed:
        text = text[1:-1]
    if ":" in text and "%" in text:  # IPv6 zone id (``fe80::1%eth0``): irrelevant to the destination
        text = text.split("%", 1)[0]
    return text, bracketed


def _ipv6_text(ip: ipaddress.IPv6Address) -> str:
    """RFC 5952 text; IPv4-mapped addresses in their dotted form on every Python version."""
    mapped = ip.ipv4_mapped
    return f"::ffff:{mapped}" if mapped is not None else ip.compressed


def parse_host(text: str) -> Endpoint | None:
    """Any written form of a host name or IP literal (brackets, zone ids, encodings), else None."""
    if not text:
        return None
    decoded = _decode_text(text)
    decoded, bracketed = _strip_brackets_and_zone(decoded)
    decoded = decoded.lower()
    if ":" in decoded:
        ip6 = parse_ipv6(decoded)
        return None if ip6 is None else Endpoint(_ipv6_text(ip6), ip6, None, text)
    if bracketed:
        return None
    decoded = decoded.rstrip(".")
    if not decoded or decoded.startswith(".") or ".." in decoded:
        return None
    if looks_numeric_host(decoded):
        ip4 = parse_ipv4(decoded)
        if ip4 is not None:
            return Endpoint(str(ip4), ip4, None, text)
    if _BAD_HOST.search(decoded) or decoded.startswith("-"):
        return None
    if not decoded.isascii():
        decoded = _idna_ascii(decoded)
    return Endpoint(decoded, None, None, text)


# --- URLs ---------------------------------------------------------------------------------

# Schemes with WHATWG "special" parsing: any run of / and \ separates scheme and host,
# and "http:host" without slashes still means a host.
SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "file"})
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_AUTHORITY_END = re.compile(r"[/\\?#\s\"'`<>(){}|;,^]")
_AUTHORITY_END_GENERIC = re.compile(r"[/?#\s\"'`<>(){}|;,^]")


def _split_port(hostport: str) -> tuple[str, int | None, bool]:
    """(host, port, ok); ok is False when the text after ':' is not a port."""
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            return hostport, None, False
        host, rest = hostport[: end + 1], hostport[end + 1 :]
        if not rest:
            return host, None, True
        if not rest.startswith(":"):
            return host, None, False
        return host, _port(rest[1:]), True
    host, sep, port = hostport.partition(":")
    if not sep:
        return host, None, True
    return host, _port(port), True


def _port(text: str) -> int | None:
    if text.isascii() and text.isdigit() and len(text) <= 5:
        value = int(text)
        return value if value <= 65535 else None
    return None


def parse_authority(authority: str, raw: str, scheme: str | None) -> Endpoint | None:
    """``[userinfo@]host[:port]`` -> Endpoint (userinfo dropped; the last '@' wins, as in WHATWG/curl)."""
    hostport = authority.rpartition("@")[2]
    host, port, _ = _split_port(hostport)
    endpoint = parse_host(host)
    if endpoint is None:
        return None
    return Endpoint(endpoint.host, endpoint.ip, port, raw, scheme)


def split_url(text: str) -> tuple[str, str, int] | None:
    """(scheme, authority, end offset of the authority) for ``text`` starting with a URL, else None."""
    match = _SCHEME.match(text)
    if match is None or match.end() < 3:  # single letters are drive letters (C:\\)
        return None
    scheme = match.group(1).lower()
    start = match.end()
    special = scheme in SPECIAL_SCHEMES
    if scheme == "file":  # file://host/path; file:///path has no host
        if text[start : start + 2] not in ("//", "\\\\", "/\\", "\\/"):
            return None
        start += 2
    elif special:
        while start < len(text) and text[start] in "/\\":
            start += 1
    elif text.startswith("//", start):
        start += 2
    else:
        return None
    end_re = _AUTHORITY_END if special else _AUTHORITY_END_GENERIC
    found = end_re.search(text, start)
    end = found.start() if found else len(text)
    return scheme, text[start:end], end


def parse_url(text: str) -> Endpoint | None:
    """``scheme://[userinfo@]host[:port][/...]`` (backslashes and missing slashes as WHATWG allows)."""
    parts = split_url(text)
    if parts is None:
        return None
    scheme, authority, _ = parts
    if not authority:
        return None
    endpoint = parse_authority(authority, text, scheme)
    if endpoint is None and "\\" in authority:  # 'gopher://host\path': some clients end the host at a backslash
        endpoint = parse_authority(authority.split("\\", 1)[0], text, scheme)
    return endpoint


# --- classification -----------------------------------------------------------------------

_METADATA_V4 = frozenset(
    ipaddress.IPv4Address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle ...
        "169.254.170.2",  # ECS task metadata / credentials
        "169.254.170.23",  # EKS Pod Identity agent (credentials)
        "192.0.0.192",  # Oracle Cloud classic
        "100.100.100.200",  # Alibaba Cloud
    )
)
_METADATA_V6 = frozenset(
    ipaddress.IPv6Address(a)
    for a in (
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::23",  # EKS Pod Identity agent over IPv6
        "fd20:ce::254",  # GCP metadata over IPv6
    )
)
_METADATA_NAMES = frozenset(
    {
        "metadata.google.internal",
        "metadata",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
_LOOPBACK_NAMES = frozenset(
    {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback", "localhost6", "localhost6.localdomain6"}
)
_HEX8 = re.compile(r"[0-9a-f]{8}\Z")


def _ip_is_metadata(ip: IPAddress) -> bool:
    if isinstance(ip, ipaddress.IPv4Address):
        return ip in _METADATA_V4
    return ip in _METADATA_V6 or any(v4 in _METADATA_V4 for v4 in embedded_ipv4(ip))


def _runs_spell_metadata(parts: list[str]) -> bool:
    """Do 1-4 consecutive parts spell a metadata IPv4 (dotted, any radix, or 8 hex digits)?"""
    for i in range(len(parts)):
        if _HEX8.match(parts[i]) and ipaddress.IPv4Address(int(parts[i], 16)) in _METADATA_V4:
            return True
        for n in range(1, min(4, len(parts) - i) + 1):
            ip = parse_ipv4(".".join(parts[i : i + n]))
            if ip is not None and ip in _METADATA_V4:
                return True
    return False


def _name_embeds_metadata(name: str) -> bool:
    """Wildcard-DNS names (nip.io, sslip.io, xip.io, ...) that spell a metadata address in their labels."""
    if not any(c.isdigit() for c in name):
        return False
    labels = name.split(".")
    if _runs_spell_metadata(labels):
        return True
    for label in labels:
        if "-" not in label:
            continue
        if _runs_spell_metadata(label.split("-")):
            return True
        if "--" in label:  # sslip.io IPv6: fd00-ec2--254
            ip6 = parse_ipv6(label.replace("-", ":"))
            if ip6 is not None and _ip_is_metadata(ip6):
                return True
    return False


def is_metadata(ep: Endpoint) -> bool:
    """A cloud metadata / credential service, in any spelling (parsed addresses, never strings)."""
    if ep.ip is not None:
        return _ip_is_metadata(ep.ip)
    return ep.host in _METADATA_NAMES or _name_embeds_metadata(ep.host)


def _effective_ip(ip: IPAddress) -> IPAddress:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_loopback(ep: Endpoint) -> bool:
    """127/8, ::1 (also IPv4-mapped), 0.0.0.0 / :: (they reach local listeners), localhost names."""
    if ep.ip is not None:
        ip = _effective_ip(ep.ip)
        return ip.is_loopback or ip.is_unspecified
    return ep.host in _LOOPBACK_NAMES or ep.host.endswith(".localhost")


@lru_cache(maxsize=64)
def _compile_allow(entries: tuple[str, ...]) -> tuple[bool, frozenset, tuple, tuple, tuple]:
    """(allow_all, exact IPs, networks, names allowing subdomains, subdomain-only suffixes)."""
    allow_all = False
    ips: set = set()
    nets: list = []
    names: list[str] = []
    wild: list[str] = []
    for entry in entries:
        entry = entry.strip()
        if entry == "*":
            allow_all = True
        elif "/" in entry:
            try:
                nets.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            except ValueError:
                continue
        elif entry.startswith(("*.", ".")):
            suffix = parse_host(entry.lstrip("*").lstrip("."))
            if suffix is not None and suffix.ip is None:
                wild.append(suffix.host)
        else:
            parsed = parse_host(entry)
            if parsed is None:
                continue
            if parsed.ip is not None:
                ips.add(_effective_ip(parsed.ip))
            else:
                names.append(parsed.host)
    return allow_all, frozenset(ips), tuple(nets), tuple(names), tuple(wild)


def host_allowed(ep: Endpoint, allow_hosts: Sequence[str]) -> bool:
    """Dot-boundary suffix match: ``github.com`` allows ``api.github.com`` and ``github.com.``,
    never ``evil-github.com`` or ``github.com.evil.example.com``; IPs and CIDRs compare as
    addresses; ``*.example.com`` allows subdomains only."""
    allow_all, ips, nets, names, wild = _compile_allow(tuple(allow_hosts))
    if allow_all:
        return True
    if ep.ip is not None:
        ip = _effective_ip(ep.ip)
        return ip in ips or any(ip.version == net.version and ip in net for net in nets)
    host = ep.host
    for name in names:
        if host == name or host.endswith("." + name):
            return True
    return any(host.endswith("." + suffix) for suffix in wild)
