"""Find the endpoints hidden in one shell word (code payloads: :mod:`horizon_cli.guard.nettext`).

Runs on every word of every command, so each scanner is guarded by a cheap
character test and the common word (``-la``, ``src/app.py``) costs a few
``in`` checks.  Scheme-less forms (``host:port``, ``host:/path``) only count
when the host is plausible -- an IP literal or a dotted name whose last label
is not a file extension -- so ``main.py:10`` and ``python:3`` stay words while
``evil.example.com:22`` is a destination.
"""

from __future__ import annotations

import re

from horizon_cli.guard.hosts import Endpoint, parse_authority, parse_host, parse_url, percent_decode, split_url

# Last labels that name file types far more often than top-level domains.
_FILE_EXTS = frozenset(
    """py pyc pyi pyx js mjs cjs ts tsx jsx json jsonl yaml yml toml ini cfg conf txt md rst log csv tsv
    html htm css scss sass less c h cc cpp cxx hpp hh go rs rb java class jar kt kts swift php pl pm sh bash
    zsh fish lock xml sql db sqlite tar gz tgz zip bz2 xz zst 7z rar png jpg jpeg gif svg ico webp bmp pdf
    bin exe dll so dylib o a whl egg ipynb lua r scala vue svelte dart ex exs erl hrl hs ml mli tf tfvars
    proto gradle mk cmake patch diff bak tmp swp out err pem key crt cer csr pub env example sample template
    dist orig old new test spec map min wasm mod sum cs fs vb asm s ps1 bat cmd psd1 psm1 nix deb rpm apk
    dmg iso img qcow2 vmdk ova pkl pt pth ckpt onnx safetensors npy npz parquet avro orc feather h5 hdf5
    mp3 mp4 wav flac ogg mov avi mkv webm woff woff2 ttf otf eot rtf doc docx xls xlsx ppt pptx odt ods
    tex bib sty cls aux toc ics vcf eml mbox po pot mo plist strings xib nib storyboard entitlements
    pbxproj xcconfig sln csproj vcxproj props targets editorconfig gitignore dockerignore
    ext extension file files properties prop bam sam bai fa fasta fq fastq bed gtf gff phtml phar keys jsp
    asp aspx cgi inc tpl twig erb haml pug ejs hbs mustache liquid j2 jinja jinja2 rdb aof dump sqlite3 mdb
    dat data raw hex elf obj lib pdb nupkg gem pom sbt cabal gemspec podspec nuspec xcodeproj lst manifest
    """.split()
)
_TLD = re.compile(r"(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})\Z")
_SINGLE_LABEL_HOSTS = frozenset({"localhost", "metadata", "instance-data"})

_URL_START = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*:(?:/|\\)")
_SPECIAL_NO_SLASH = re.compile(r"(?i)(?:https?|wss?|ftp):(?![/\\])")
_DEV_NET = re.compile(r"/dev/(tcp|udp)/([^/\s]+)/([^/\s]*)")
_SOCAT = re.compile(
    r"(?i)(tcp[46]?(?:-connect)?|udp[46]?(?:-connect|-sendto|-datagram)?|sctp[46]?(?:-connect)?"
    r"|openssl(?:-connect|-dtls-client)?|ssl|dccp[46]?(?:-connect)?|proxy(?:-connect)?|socks[45]a?(?:-connect)?)"
    r":([^,]+)"
)
_SCP = re.compile(r"([^@/\s:]+)@(\[[^\]]+\]|[^@/\s:\[\]]+):(.*)\Z", re.S)
_PROXY_OPTION = re.compile(r"(?i)proxy(command|jump)\s*[= ]\s*(.+)", re.S)
_PROXY_ASSIGN = re.compile(r"(?i)(?<![\w.-])(?!no_)[a-z_.]*proxy\s*=\s*([^\s;'\"]+)")
_OPTION_VALUE = re.compile(r"-{1,2}[A-Za-z][\w\-]*=(.*)\Z", re.S)
_DECIMAL = re.compile(r"[0-9]+\Z")


def plausible(ep: Endpoint, host_text: str) -> bool:
    """Is a scheme-less ``host_text`` really a host? IP literals and dotted names with a real-looking TLD."""
    if ep.ip is not None:
        if "." in host_text or ":" in host_text or host_text.lower().startswith("0x"):
            return True
        return _DECIMAL.match(host_text) is not None and int(host_text) >= 1 << 24  # 2852039166
    host = ep.host
    if host in _SINGLE_LABEL_HOSTS or host.endswith(".localhost"):
        return True
    last = host.rpartition(".")[2]
    return "." in host and _TLD.match(last) is not None and last not in _FILE_EXTS


def _fields(text: str) -> list[str]:
    """Split on ':' outside [...] brackets (IPv6 literals)."""
    out, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == ":" and depth == 0:
            out.append(text[start:index])
            start = index + 1
    out.append(text[start:])
    return out


def _port_of(text: str) -> int | None:
    return int(text) if _DECIMAL.match(text) and int(text) <= 65535 else None


def _host_port(host_text: str, port_text: str | None, raw: str, strict: bool = True) -> Endpoint | None:
    ep = parse_host(host_text)
    if ep is None or (strict and not plausible(ep, host_text.strip("[]"))):
        return None
    port = _port_of(port_text) if port_text else None
    return Endpoint(ep.host, ep.ip, port, raw, None)


def _urls(word: str, out: list[Endpoint]) -> None:
    if ("{" in word or "[" in word) and "://" in word:
        variants = curl_glob_variants(word)
        if len(variants) > 1:
            for variant in variants:
                _urls_plain(variant, out)
            return
    _urls_plain(word, out)


def _urls_plain(word: str, out: list[Endpoint]) -> None:
    starts = [m.start() for m in _URL_START.finditer(word)]
    if _SPECIAL_NO_SLASH.match(word) is not None:
        starts.insert(0, 0)
    for start in starts:
        text = word[start:]
        ep = parse_url(text)
        if ep is not None:
            out.append(ep)
        if "@" in text:
            _ambiguous_authority(text, out)


_CURL_SET = re.compile(r"\{([^{}]*,[^{}]*)\}")
_CURL_RANGE = re.compile(r"\[([0-9]+-[0-9]+|[a-z]-[a-z]|[A-Z]-[A-Z])(?::([0-9]+))?\]")
_MAX_GLOB_VARIANTS = 256


def _range_items(spec: str, step_text: str | None) -> list[str]:
    low, high = spec.split("-")
    step = max(1, int(step_text or 1))
    if low.isdigit():
        width = len(low) if low.startswith("0") else 0
        return [str(n).zfill(width) for n in range(int(low), int(high) + 1, step)]
    return [chr(n) for n in range(ord(low), ord(high) + 1, step)]


def curl_glob_variants(word: str) -> list[str]:
    """curl's URL globbing (``{a,b}`` sets, ``[0-9]``/``[a-z]`` ranges) expanded, at most 256 variants."""
    variants = [word]
    while True:
        expanded, changed = [], False
        for variant in variants:
            match = _CURL_SET.search(variant) or _CURL_RANGE.search(variant)
            if match is None:
                expanded.append(variant)
                continue
            changed = True
            if match.re is _CURL_SET:
                items = match.group(1).split(",")
            else:
                items = _range_items(match.group(1), match.group(2))
            head, tail = variant[: match.start()], variant[match.end() :]
            expanded.extend(head + item + tail for item in items)
        variants = expanded[:_MAX_GLOB_VARIANTS]
        if not changed:
            return variants


def _ambiguous_authority(text: str, out: list[Endpoint]) -> None:
    """Parsers disagree on ``a@b@c``, ``a#@b`` and ``a%2f@b``: report every host a client might pick."""
    parts = split_url(text)
    if parts is None:
        return
    scheme, _, end = parts
    # Backslashes do not end this chunk: WHATWG reads 'a\\@b' as host a, other clients as b.
    chunk_end = re.search(r"[/\s\"'`<>]", text[end:])
    chunk = text[: end + (chunk_end.start() if chunk_end else len(text) - end)]
    chunk = chunk.split(":", 1)[1].lstrip("/\\")
    if "@" not in chunk:
        return
    pieces = re.split(r"[@#?]", chunk)
    for piece in pieces[1:]:
        ep = parse_authority(piece, text, scheme)
        if ep is not None:
            out.append(ep)
    if "%" in pieces[0]:  # a client that decodes before splitting sees 'host/' in '169.254.169.254%2f@x'
        decoded = re.split(r"[/\\?#]", percent_decode(pieces[0]), maxsplit=1)[0]
        ep = parse_authority(decoded, text, scheme)
        if ep is not None:
            out.append(ep)


def _proxy_assignments(word: str, out: list[Endpoint]) -> None:
    """``http_proxy=host:port``, ``-e https_proxy=...`` (wget), ``ALL_PROXY=socks5://...``."""
    for match in _PROXY_ASSIGN.finditer(word):
        value = match.group(1)
        ep = bare_endpoint(value)
        host_text = value.split("/", 1)[0].rpartition("@")[2].split(":")[0]
        if ep is not None and ("://" in value or plausible(ep, host_text)):
            out.append(ep)


def _dev_net(word: str, out: list[Endpoint]) -> None:
    for match in _DEV_NET.finditer(word):
        ep = _host_port(match.group(2), match.group(3), match.group(0), strict=False)
        if ep is not None:
            out.append(Endpoint(ep.host, ep.ip, ep.port, ep.raw, match.group(1)))


def _socat(word: str, out: list[Endpoint]) -> None:
    match = _SOCAT.match(word)
    if match is None:
        return
    fields = _fields(match.group(2))
    for index, field in enumerate(fields):
        if not field or _DECIMAL.match(field):
            continue
        port = fields[index + 1] if index + 1 < len(fields) else None
        ep = _host_port(field, port, word, strict=False)
        if ep is not None:
            out.append(ep)


def _curl_routes(word: str, out: list[Endpoint]) -> None:
    """``--resolve host:port:addr[,addr]`` and ``--connect-to h1:p1:h2:p2`` values: every host named."""
    fields = _fields(word.lstrip("+-"))
    if not 3 <= len(fields) <= 4:
        return
    if _DECIMAL.match(fields[-3]) and _DECIMAL.match(fields[-1]):  # ssh -L/-R [bind:]port:host:hostport
        ep = _host_port(fields[-2], fields[-1], word)
        if ep is not None:
            out.append(ep)
        if len(fields) == 3 or not fields[0]:
            return
    if not (fields[1] == "" or _DECIMAL.match(fields[1])):
        return
    ports = (fields[1], fields[3] if len(fields) == 4 else fields[1])
    hosts = [(fields[0], ports[0])] + [(addr, ports[1]) for addr in fields[2].split(",")]
    for host, port in hosts:
        if host:
            ep = _host_port(host, port, word)
            if ep is not None:
                out.append(ep)


def _scheme_less(word: str, out: list[Endpoint]) -> None:
    """``user@host:path`` (scp/rsync/git), ``host:port[/path]``, ``host:/path``, ``host::module``."""
    match = _SCP.match(word)
    if match is not None:
        ep = _host_port(match.group(2), None, word, strict=False)
        if ep is not None:
            out.append(ep)
        return
    fields = _fields(word.split("/", 1)[0] if not word.startswith("[") else word)
    if len(fields) < 2 or not fields[0]:
        return
    host, rest = fields[0], word[len(fields[0]) + 1 :]
    port = re.match(r"[0-9]{1,5}(?=/|\Z)", rest)
    if port is None and rest and not rest.startswith(("/", "~", ":")):
        return  # 'group.id:artifact', 'image:tag': not a destination ('host:' is scp's remote home)
    ep = _host_port(host, port.group(0) if port else None, word)
    if ep is not None:
        out.append(ep)


_MAILBOX = re.compile(r"([^@\s:/]+)@([^@\s:/]+)\Z")


def _mailbox(word: str, out: list[Endpoint]) -> None:
    """``user@host`` without a path: mail recipients, ``ssh -J``/sftp targets (``pkg@1.2.3`` is a version)."""
    match = _MAILBOX.match(word)
    if match is None:
        return
    host = match.group(2).rstrip(">")
    ep = parse_host(host)
    if ep is None or not plausible(ep, host):
        return
    if ep.ip is not None and ep.ip.version == 4 and host.rstrip(".").count(".") != 3:
        return
    out.append(Endpoint(ep.host, ep.ip, None, word, None))


def _proxy_options(word: str, out: list[Endpoint]) -> None:
    """ssh ``ProxyCommand nc host 22`` / ``ProxyJump user@host:port,...`` (options or config text)."""
    for match in _PROXY_OPTION.finditer(word):
        value = match.group(2)
        if match.group(1).lower() == "jump":
            for hop in value.split(","):
                ep = bare_endpoint(hop.strip().split()[0] if hop.strip() else "")
                if ep is not None:
                    out.append(ep)
            continue
        for token in re.split(r"\s+|\\[nt]", value):
            if not token or token.startswith("-") or "%" in token:
                continue
            out.extend(scan_word(token))
            ep = bare_endpoint(token)
            if ep is not None and plausible(ep, token.rpartition("@")[2]):
                out.append(ep)


def bare_endpoint(word: str) -> Endpoint | None:
    """The word as a destination: ``[user@]host[:port][/path]``, ``@server`` (dig), a URL, an IPv6 literal.

    A plain decimal below 65536 is a port or a count (``nc host 80``), not ``0.0.0.80``.
    """
    word = word[1:] if word.startswith("@") else word
    if not word:
        return None
    if "://" in word or _SPECIAL_NO_SLASH.match(word):
        return parse_url(word)
    authority = word.split("/", 1)[0].rpartition("@")[2]
    if authority.count(":") >= 2 and not authority.startswith("["):
        ep = parse_host(authority)
        return None if ep is None else Endpoint(ep.host, ep.ip, None, word)
    fields = _fields(authority)
    host = fields[0]
    if _DECIMAL.match(host) and 0 < int(host) < 65536:
        return None
    port = fields[1] if len(fields) == 2 else None
    ep = parse_host(host)
    if ep is None:
        return None
    return Endpoint(ep.host, ep.ip, _port_of(port) if port else None, word, None)


def dedupe(endpoints: list[Endpoint]) -> list[Endpoint]:
    seen: set[tuple] = set()
    out = []
    for ep in endpoints:
        key = (ep.host, ep.port, ep.scheme)
        if key not in seen:
            seen.add(key)
            out.append(ep)
    return out


def scan_word(word: str) -> list[Endpoint]:
    """Non-bare scan of one word (no dedupe)."""
    out: list[Endpoint] = []
    has_colon = ":" in word
    if not has_colon and "/dev/" not in word and "roxy" not in word and "ROXY" not in word:
        if "@" in word:
            _mailbox(word, out)
        return out
    if "roxy" in word or "ROXY" in word:
        _proxy_options(word, out)
        _proxy_assignments(word, out)
    option = _OPTION_VALUE.match(word) if word.startswith("-") else None
    if option is not None:
        word = option.group(1)
    if "/dev/" in word:
        _dev_net(word, out)
    if not has_colon:
        return out
    if "/" in word or "\\" in word or _SPECIAL_NO_SLASH.match(word):
        _urls(word, out)
    if out:
        return out
    if word.count(":") >= 2 and not word.startswith("["):
        ep = parse_host(word)
        if ep is not None and ep.ip is not None:
            out.append(Endpoint(ep.host, ep.ip, None, word, None))
            return out
    _socat(word, out)
    if not out:
        _curl_routes(word, out)
    if not out:
        _scheme_less(word, out)
    return out


def endpoints_in_word(word: str, *, bare: bool = False) -> list[Endpoint]:
    """Every endpoint-looking thing inside one shell word.

    URLs anywhere in the word (also inside code such as ``print get("http://...")``),
    ``user@host:path``, ``host:port`` for IP literals and dotted names, ``/dev/tcp/HOST/PORT``,
    socat addresses (``TCP:h:p``, ``OPENSSL:h:p``, ``PROXY:p:h:p``), curl ``--resolve``/``--connect-to``
    values (every host), ssh ``ProxyCommand``/``ProxyJump`` text; with ``bare=True`` also the
    word itself as a host (positional arguments of nc/ssh/ping/dig/telnet: ``nc 2852039166 80``).
    """
    if not word:
        return []
    out = scan_word(word)
    if bare and not (out and "://" in word):  # a URL was already read by the scan
        ep = bare_endpoint(word)
        if ep is not None:
            out.insert(0, ep)
    return dedupe(out) if len(out) > 1 else out
