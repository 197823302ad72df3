"""Network normalization: hosts in every spelling, metadata detection, allowlists, endpoint scanning."""

from __future__ import annotations

import ipaddress
import json
import shlex
import socket
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_path
from horizon_cli.guard.net import (
    Endpoint,
    endpoints_in_text,
    endpoints_in_word,
    host_allowed,
    is_loopback,
    is_metadata,
    parse_host,
    parse_url,
)
from horizon_cli.guard.netaddr import parse_ipv4

METADATA_V4 = ["169.254.169.254", "169.254.170.2", "169.254.170.23", "192.0.0.192", "100.100.100.200"]
DEFAULT_ALLOW = ["github.com", "githubusercontent.com", "google.com", "localhost", "127.0.0.0/8", "::1"]


def hosts(word: str, **kw) -> list[str]:
    return [ep.host for ep in endpoints_in_word(word, **kw)]


# --- parse_host -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "169.254.169.254",
        "169.254.43518",
        "169.16689662",
        "2852039166",
        "0xa9fea9fe",
        "0XA9FEA9FE",
        "0251.0376.0251.0376",
        "0xA9.0xFE.0xA9.0xFE",
        "0xa9.0376.43518",
        "169.0xfea9fe",
        "0251.0xfe.169.254",
        "00000000251.00000000376.0251.0376",
        "0x0000a9.0xfe.0251.254",
        "169.254.169.254.",
        "169.254.169.254..",
        "%31%36%39.254.169.254",
        "%31%36%39%2e%32%35%34%2e%31%36%39%2e%32%35%34",
        "169\u3002254\u3002169\u3002254",
        "169\uff0e254\uff0e169\uff0e254",
        "169\uff61254\uff61169\uff61254",
        "\uff11\uff16\uff19.254.169.254",  # fullwidth digits
        "\u2460\u2465\u2468.\u2461\u2464\u2463.169.254",  # circled digits (NFKC)
        "169.254\u00ad.169.\u200b254",  # soft hyphen and zero-width space are ignored by IDNA
    ],
)
def test_ipv4_spellings_are_the_metadata_address(text):
    ep = parse_host(text)
    assert ep is not None
    assert ep.host == "169.254.169.254"
    assert ep.ip == ipaddress.IPv4Address("169.254.169.254")
    assert ep.raw == text
    assert is_metadata(ep)


@pytest.mark.parametrize("text", ["7147006462", "0x41414141A9FEA9FE", "0x1a9fea9fe", "169.254.169.510"])
def test_overlong_numbers_wrap_and_fail_closed(text):
    ep = parse_host(text)
    assert ep is not None and is_metadata(ep)


@pytest.mark.parametrize(
    "text",
    [
        "[::ffff:169.254.169.254]",
        "::ffff:169.254.169.254",
        "[::ffff:a9fe:a9fe]",
        "[0:0:0:0:0:ffff:a9fe:a9fe]",
        "[0000:0000:0000:0000:0000:FFFF:A9FE:A9FE]",
        "[::169.254.169.254]",
        "[::a9fe:a9fe]",
        "[64:ff9b::a9fe:a9fe]",
        "[64:ff9b::169.254.169.254]",
        "[64:ff9b:1:a9fe:a9:fe00::]",  # RFC 6052 /48 layout around the u octet
        "[2002:a9fe:a9fe::]",
        "[2002:a9fe:a9fe:1::1]",
        "[fd00:ec2::254]",
        "[fd00:0ec2::0254]",
        "[FD00:0EC2:0000:0000:0000:0000:0000:0254]",
        "[fd00:ec2::254%25eth0]",
        "fd00:ec2::254%eth0",
        "[::ffff:0251.0376.0251.0376]",  # inet_aton spelling inside the mapped tail
        "[fd20:ce::254]",
        "[fd00:ec2::23]",
    ],
)
def test_ipv6_spellings_carry_metadata(text):
    ep = parse_host(text)
    assert ep is not None and ep.ip is not None and ep.ip.version == 6
    assert is_metadata(ep)


def test_ipv6_canonical_form_and_zone_dropped():
    assert parse_host("[0:0:0:0:0:FFFF:A9FE:A9FE]").host == "::ffff:169.254.169.254"
    assert parse_host("[fd00:0ec2:0:0::0254]").host == "fd00:ec2::254"
    assert parse_host("[fe80::1%25eth0]").host == "fe80::1"
    assert not is_metadata(parse_host("[fe80::1]"))
    assert not is_metadata(parse_host("[2001:db8::1]"))


@pytest.mark.parametrize(
    "text",
    [
        "metadata.google.internal",
        "METADATA.GOOGLE.INTERNAL",
        "metadata.google.internal.",
        "Metadata",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
        "169.254.169.254.nip.io",
        "app.169.254.169.254.nip.io",
        "169-254-169-254.sslip.io",
        "app-169-254-169-254.sslip.io",
        "a9fea9fe.nip.io",
        "magic-a9fea9fe.nip.io",
        "169.254.169.254.xip.io",
        "2852039166.nip.io",
        "169.254.170.2.nip.io",
        "fd00-ec2--254.sslip.io",
        "100.100.100.200.nip.io",
        "%6d%65%74%61%64%61%74%61",  # "metadata", percent-encoded
        "\uff4d\uff45\uff54\uff41\uff44\uff41\uff54\uff41",  # fullwidth "metadata"
        "0xa9fea9fe.nip.io",
        "meta\u00addata.google.internal",
    ],
)
def test_metadata_names(text):
    ep = parse_host(text)
    assert ep is not None and ep.ip is None
    assert is_metadata(ep)


@pytest.mark.parametrize(
    "text",
    [
        "169.254.169.253",
        "169.254.1.1",
        "10.0.0.1",
        "github.com",
        "metadata.example.com",
        "my-metadata",
        "1.2.3.4.nip.io",
        "cafebabe.nip.io",
        "instance-database",
        "[::1]",
        "127.0.0.1",
        "0.0.0.0",
    ],
)
def test_not_metadata(text):
    ep = parse_host(text)
    assert ep is not None
    assert not is_metadata(ep)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("GitHub.COM", "github.com"),
        ("github.com.", "github.com"),
        ("github%2ecom", "github.com"),
        ("github\u3002com", "github.com"),
        ("b\u00fccher.example", "xn--bcher-kva.example"),
        ("B\u00dcCHER.example", "xn--bcher-kva.example"),
    ],
)
def test_name_normalization(text, expected):
    assert parse_host(text).host == expected


@pytest.mark.parametrize("text", ["", ".", "a..b", "foo bar", "a/b", "user@host", "[169.254.169.254]", "[]", "a:b"])
def test_not_a_host(text):
    assert parse_host(text) is None


def test_numeric_looking_names_stay_names():
    assert parse_host("1password.com").ip is None
    assert parse_host("08.1.1.1").ip is None  # 08 is no valid octal: a name, not an address
    assert parse_host("123abc.de").host == "123abc.de"


# --- parse_url ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url,host,port,scheme",
    [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254", None, "http"),
        ("HTTP://169.254.169.254:80/", "169.254.169.254", 80, "http"),
        ("http://github.com@169.254.169.254/", "169.254.169.254", None, "http"),
        ("http://user:pass@169.254.169.254:8080/x", "169.254.169.254", 8080, "http"),
        ("http:\\\\169.254.169.254\\latest", "169.254.169.254", None, "http"),
        ("http:/\\169.254.169.254/", "169.254.169.254", None, "http"),
        ("http:169.254.169.254/", "169.254.169.254", None, "http"),
        ("https:///169.254.169.254/", "169.254.169.254", None, "https"),
        ("gopher://metadata.google.internal:80/xGET%20/", "metadata.google.internal", 80, "gopher"),
        ("dict://169.254.169.254:11211/stat", "169.254.169.254", 11211, "dict"),
        ("ssh://git@github.com/me/x.git", "github.com", None, "ssh"),
        ("git+ssh://git@github.com:22/me/x.git", "github.com", 22, "git+ssh"),
        ("http://[::ffff:169.254.169.254]:80/", "::ffff:169.254.169.254", 80, "http"),
        ("http://169.254.169.254?x", "169.254.169.254", None, "http"),
        ("http://169.254.169.254#frag", "169.254.169.254", None, "http"),
        ("https://github.com./api", "github.com", None, "https"),
        ("http://example.com:99999/", "example.com", None, "http"),
    ],
)
def test_parse_url(url, host, port, scheme):
    ep = parse_url(url)
    assert (ep.host, ep.port, ep.scheme, ep.raw) == (host, port, scheme, url)


@pytest.mark.parametrize("text", ["169.254.169.254/x", "C:\\Windows", "mailto:a@b.c", "file:///etc/passwd", "http://"])
def test_parse_url_rejects(text):
    assert parse_url(text) is None


def test_parse_url_ipv4_has_canonical_host():
    ep = parse_url("http://0x7f000001:8080/health")
    loopback = ipaddress.IPv4Address("127.0.0.1")
    assert ep == Endpoint("127.0.0.1", loopback, 8080, "http://0x7f000001:8080/health", "http")


# --- is_loopback / host_allowed ------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "[::1]", "[::ffff:127.0.0.1]", "localhost",
             "LOCALHOST.", "api.localhost", "0.0.0.0", "0", "[::]"]
)
def test_loopback(text):
    assert is_loopback(parse_host(text))


@pytest.mark.parametrize("text", ["10.0.0.1", "127.0.0.1.nip.io", "localhost.evil.example.com", "mylocalhost"])
def test_not_loopback(text):
    assert not is_loopback(parse_host(text))


@pytest.mark.parametrize(
    "text", ["github.com", "api.github.com", "github.com.", "GITHUB.COM", "raw.githubusercontent.com",
             "127.0.0.1", "0x7f000001", "[::1]", "[::ffff:127.0.0.1]", "localhost", "github%2ecom", "github\u3002com"]
)
def test_allowed(text):
    assert host_allowed(parse_host(text), DEFAULT_ALLOW)


@pytest.mark.parametrize(
    "text", ["evil-github.com", "github.com.evil.example.com", "raw.githubusercontent.com.evil.example.com",
             "githubcom", "xgithub.com", "github.co", "10.0.0.1", "[::2]", "169.254.169.254", "evil.example.com"]
)
def test_not_allowed(text):
    assert not host_allowed(parse_host(text), DEFAULT_ALLOW)


def test_allowlist_entry_forms():
    allow = ["*.example.org", "10.0.0.0/8", "[2001:db8::]/32", "192.0.2.7", "Example.NET.", "*"]
    assert host_allowed(parse_host("a.example.org"), allow[:1])
    assert not host_allowed(parse_host("example.org"), allow[:1])  # '*.' means subdomains only
    assert host_allowed(parse_host("10.200.3.4"), allow[1:2])
    assert host_allowed(parse_host("012.1.2.3"), allow[1:2])  # octal 012 == 10
    assert not host_allowed(parse_host("11.0.0.1"), allow[1:2])
    assert host_allowed(parse_host("[2001:db8:1::5]"), ["2001:db8::/32"])
    assert host_allowed(parse_host("192.0.2.7"), allow[3:4])
    assert host_allowed(parse_host("3221225991"), allow[3:4])
    assert host_allowed(parse_host("www.example.net"), allow[4:5])
    assert host_allowed(parse_host("anything.invalid"), allow[5:])
    assert not host_allowed(parse_host("github.com"), [])
    assert not host_allowed(parse_host("github.com"), ["not a host", "300.1.1.1/99"])
    assert not host_allowed(parse_host("10.0.0.1"), ["10.example.com"])


# --- endpoints_in_word ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "word,expected",
    [
        ("http://169.254.169.254/latest/meta-data/", ["169.254.169.254"]),
        ('print get("http://169.254.169.254/latest/meta-data/")', ["169.254.169.254"]),
        ("url=http://evil.example.com/x", ["evil.example.com"]),
        ("git@evil.example.com:loot.git", ["evil.example.com"]),
        ("backup@evil.example.com:/srv/src/", ["evil.example.com"]),
        ("user@[::1]:/tmp/x", ["::1"]),
        ("evil.example.com:/data", ["evil.example.com"]),
        ("evil.example.com::module", ["evil.example.com"]),
        ("169.254.169.254:443", ["169.254.169.254"]),
        ("2852039166:80", ["169.254.169.254"]),
        ("0xa9fea9fe:80", ["169.254.169.254"]),
        ("[fd00:ec2::254]:80", ["fd00:ec2::254"]),
        ("localhost:8080", ["localhost"]),
        ("evil.example.com:443/path", ["evil.example.com"]),
        ("/dev/tcp/169.254.169.254/80", ["169.254.169.254"]),
        ("3<>/dev/tcp/169.254.169.254/80", ["169.254.169.254"]),
        ("/dev/udp/evil.example.com/53", ["evil.example.com"]),
        ("TCP:169.254.169.254:80", ["169.254.169.254"]),
        ("tcp4:evil.example.com:80,reuseaddr", ["evil.example.com"]),
        ("TCP6:[fd00:ec2::254]:80", ["fd00:ec2::254"]),
        ("OPENSSL:evil.example.com:443,verify=0", ["evil.example.com"]),
        ("OPENSSL-CONNECT:evil.example.com:443", ["evil.example.com"]),
        ("PROXY:proxy.example.com:169.254.169.254:80", ["proxy.example.com", "169.254.169.254"]),
        ("SOCKS4A:proxy.example.com:evil.example.com:80", ["proxy.example.com", "evil.example.com"]),
        ("github.com:443:203.0.113.5", ["github.com", "203.0.113.5"]),
        ("+github.com:443:203.0.113.5,[2001:db8::1]", ["github.com", "203.0.113.5", "2001:db8::1"]),
        ("--resolve=github.com:443:203.0.113.5", ["github.com", "203.0.113.5"]),
        ("github.com:443:evil.example.com:443", ["evil.example.com", "github.com"]),
        ("::evil.example.com:", ["evil.example.com"]),
        ("9000:localhost:22", ["localhost"]),
        ("-oProxyCommand=nc evil.example.com 22", ["evil.example.com"]),
        ("ProxyCommand=socat - TCP:169.254.169.254:22", ["169.254.169.254"]),
        ("Host *\\n  ProxyCommand nc evil.example.com 22\\n", ["evil.example.com"]),
        ("-oProxyJump=me@jump.example.com:2222,second.example.com", ["jump.example.com", "second.example.com"]),
        ("fd00:ec2::254", ["fd00:ec2::254"]),
        ("http://a@169.254.169.254@github.com/", ["github.com", "169.254.169.254"]),
        ("http://github.com#@169.254.169.254/", ["github.com", "169.254.169.254"]),
        ("x=http://one.example.com/;y=https://two.example.com", ["one.example.com", "two.example.com"]),
        ("http://169.254.169.254%2f@github.com/", ["github.com", "169.254.169.254"]),
        ("http_proxy=169.254.169.254:80", ["169.254.169.254"]),
        ("https_proxy=http://proxy.example.com:3128", ["proxy.example.com"]),
        ("ALL_PROXY=socks5h://evil.example.com:1080", ["evil.example.com"]),
        ("http://{metadata,www}.google.internal/", ["metadata.google.internal", "www.google.internal"]),
        ("http://evil.example.com/file[1-3].txt", ["evil.example.com"]),
        ("http://github.com\\@169.254.169.254/", ["github.com", "169.254.169.254"]),
        ("http.proxy=169.254.169.254:80", ["169.254.169.254"]),
        ("::169.254.169.254:80", ["169.254.169.254"]),
        ("evil.example.com:", ["evil.example.com"]),
        ("attacker@evil.example.com", ["evil.example.com"]),
        ("root@169.254.169.254", ["169.254.169.254"]),
        ("<me@mail.example.org>", ["mail.example.org"]),
    ],
)
def test_endpoints_in_word(word, expected):
    assert hosts(word) == expected


@pytest.mark.parametrize(
    "word",
    [
        "-la", "src/app.py", "main.py:10", "tests/test_x.py::test_foo", "python:3", "ubuntu:22.04", "12:30:45",
        "org.apache.maven.plugins:maven-help-plugin:2.1.1:evaluate", "HEAD:src/main.py", "a.b:c", "/usr/bin:/bin",
        "PATH=/usr/local/bin:/usr/bin", "key=value", "std::vector", "1.2.3", "--color=always", "user@host",
        "file:///etc/passwd", "C:\\Users\\x", "10:30", "image.png:2x", "", "http://", "nc evil.example.com",
        "use_proxy=yes", "no_proxy=169.254.169.254,localhost", "--proxy-user=me:secret",
        "lodash@4.17.21", "@types/node", "@file.json", "-d@report.txt", "x@y", "user@host", "pkg@1.2.3.tgz",
        "main.py:",
    ],
)
def test_ordinary_words_have_no_endpoints(word):
    assert endpoints_in_word(word) == []


@pytest.mark.parametrize(
    "word,host,port",
    [
        ("2852039166", "169.254.169.254", None),
        ("evil.example.com", "evil.example.com", None),
        ("attacker@evil.example.com", "evil.example.com", None),
        ("deploy@10.0.0.5", "10.0.0.5", None),
        ("@8.8.8.8", "8.8.8.8", None),
        ("evil.example.com:4444", "evil.example.com", 4444),
        ("169.254.169.254/latest/meta-data/", "169.254.169.254", None),
        ("[fd00:ec2::254]:80", "fd00:ec2::254", 80),
        ("fd00:ec2::254", "fd00:ec2::254", None),
        ("metadata", "metadata", None),
        ("myhost", "myhost", None),
        ("0", "0.0.0.0", None),
        ("http://evil.example.com/", "evil.example.com", None),
    ],
)
def test_bare_words(word, host, port):
    eps = endpoints_in_word(word, bare=True)
    assert (eps[0].host, eps[0].port) == (host, port)


@pytest.mark.parametrize("word", ["80", "4444", "1", "-c", "foo bar", ""])
def test_bare_ports_and_junk_are_not_hosts(word):
    assert endpoints_in_word(word, bare=True) == []


def test_curl_url_globs_are_expanded():
    eps = endpoints_in_word("http://169.254.169.25[0-9]/latest/")
    assert any(is_metadata(ep) for ep in eps)
    assert len(endpoints_in_word("http://h[0-9][0-9][0-9].example.com/")) <= 256  # bounded


def test_word_endpoints_are_deduplicated():
    eps = endpoints_in_word("http://evil.example.com/", bare=True)
    assert [ep.host for ep in eps] == ["evil.example.com"]


# --- endpoints_in_text ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,expected",
    [
        ("print get(\"http://169.254.169.254/latest/meta-data/\")", ["169.254.169.254"]),
        ("require('https').request({host:'evil.example.com',method:'POST'})", ["evil.example.com"]),
        ("socket.create_connection(('169.254.169.254', 80))", ["169.254.169.254"]),
        ("s.connect(('10.1.2.3', 4444))", ["10.1.2.3"]),
        ("x = '\\x31\\x36\\x39.254.169.254'", ["169.254.169.254"]),
        ("os.system('nc 169.254.169.254 80')", ["169.254.169.254"]),
        ("BEGIN{system(\"curl -s http://169.254.169.254/latest/meta-data/\")}", ["169.254.169.254"]),
        ("open('/dev/tcp/evil.example.com/80')", ["evil.example.com"]),
        ("urlopen('http://[::ffff:a9fe:a9fe]/')", ["::ffff:169.254.169.254"]),
        ("h = 'localhost'", ["localhost"]),
        ("ip = '2852039166'", ["169.254.169.254"]),
    ],
)
def test_endpoints_in_text(text, expected):
    assert [ep.host for ep in endpoints_in_text(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "import json; print(json.load(open('package.json'))['name'])",
        "print('rm -rf /')",
        "import subprocess; subprocess.run(['make'])",
        "d['metadata'] = 1; v = '1.2.3'; os.path.join(a, b)",
        "print(\"version 1.2.3.4 released\")",
        "x = {'a.b': 1, 'config.yaml': 2, 'en_US.UTF-8': 3}",
        "print while <>",
    ],
)
def test_code_without_endpoints(text):
    assert endpoints_in_text(text) == []


# --- conformance data ------------------------------------------------------------------------


def _cases(prefix: str) -> list[dict]:
    path = shared_path("conformance", "classify_cases.jsonl")
    return [c for c in map(json.loads, path.read_text().splitlines()) if c["category"].startswith(prefix)]


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def test_conformance_metadata_cases_name_a_metadata_endpoint():
    """Every metadata-* case names a metadata endpoint once its words are scanned (bare + code text)."""
    missed = []
    for case in _cases("metadata"):
        words = _words(case["command"])
        eps = [ep for word in words for ep in endpoints_in_word(word, bare=True) + endpoints_in_text(word)]
        if not any(is_metadata(ep) for ep in eps):
            missed.append(case["command"])
    assert missed == []


def test_conformance_allowlist_edges():
    verdicts = {}
    for case in _cases("host-allowlist-edge"):
        eps = [ep for word in _words(case["command"]) for ep in endpoints_in_word(word)]
        verdicts[case["command"]] = all(host_allowed(ep, DEFAULT_ALLOW) for ep in eps)
    # Every case that may be denied names a host outside the allowlist; the pure-gate ones stay inside it.
    for case in _cases("host-allowlist-edge"):
        assert verdicts[case["command"]] == (case["accept"] == ["gate"] or "0x7f000001" in case["command"])


# --- property tests ----------------------------------------------------------------------------


def _radix(draw, value: int) -> str:
    style = draw(st.sampled_from(["dec", "hex", "HEX", "oct"]))
    pad = "0" * draw(st.integers(0, 6))
    if style == "dec" or (style == "oct" and value == 0):
        return str(value)
    if style == "oct":
        return "0" + pad + format(value, "o")
    digits = format(value, "x" if style == "hex" else "X")
    return ("0x" if draw(st.booleans()) else "0X") + pad + digits


@st.composite
def ipv4_spellings(draw, address: str) -> str:
    """An inet_aton spelling of ``address``: 1-4 parts, each part in any radix, the last filling the rest."""
    packed = ipaddress.IPv4Address(address).packed
    parts = draw(st.integers(1, 4))
    head = [_radix(draw, byte) for byte in packed[: parts - 1]]
    last = int.from_bytes(packed[parts - 1 :], "big")
    if parts == 1 and draw(st.booleans()):
        last += draw(st.integers(1, 2**20)) << 32  # over-long: some clients wrap modulo 2**32
    return ".".join([*head, _radix(draw, last)])


@given(st.sampled_from(METADATA_V4).flatmap(ipv4_spellings))
@settings(max_examples=400, deadline=None)
def test_every_ipv4_spelling_of_a_metadata_address_is_metadata(text):
    assert is_metadata(parse_host(text)), text
    assert is_metadata(parse_url(f"http://{text}/latest/meta-data/")), text
    assert any(is_metadata(ep) for ep in endpoints_in_word(f"{text}:80")), text
    try:
        aton = socket.inet_aton(text)
    except OSError:
        return
    assert parse_ipv4(text).packed == aton  # same reading as the C library when it accepts


@given(st.text(alphabet="0123456789abcdefxX.", min_size=1, max_size=24))
@settings(max_examples=600, deadline=None)
def test_parse_ipv4_agrees_with_inet_aton_whenever_it_accepts(text):
    try:
        aton = socket.inet_aton(text)
    except OSError:
        return
    if sys.platform.startswith("linux"):
        assert parse_ipv4(text) is not None and parse_ipv4(text).packed == aton


@st.composite
def ipv6_carriers(draw, address: str) -> str:
    """IPv6 literals that embed ``address``: mapped, compatible, NAT64, 6to4 -- any written form."""
    v4 = int(ipaddress.IPv4Address(address))
    kind = draw(st.sampled_from(["mapped", "compat", "nat64", "6to4", "nat64-local"]))
    value = {
        "mapped": (0xFFFF << 32) | v4,
        "compat": v4,
        "nat64": (0x64FF9B << 96) | v4,
        "6to4": (0x2002 << 112) | (v4 << 80) | draw(st.integers(0, 2**64)),
        "nat64-local": (0x64FF9B0001 << 88) | v4,
    }[kind]
    ip = ipaddress.IPv6Address(value)
    form = draw(st.sampled_from(["compressed", "exploded", "upper", "dotted"]))
    text = {"compressed": ip.compressed, "exploded": ip.exploded, "upper": ip.exploded.upper()}.get(form)
    if text is None:
        head = ipaddress.IPv6Address(value & ~0xFFFFFFFF).exploded.rsplit(":", 2)[0]
        text = f"{head}:{ipaddress.IPv4Address(value & 0xFFFFFFFF)}"
    if draw(st.booleans()):
        text += "%25eth" + str(draw(st.integers(0, 9)))
    return f"[{text}]"


@given(st.sampled_from(METADATA_V4).flatmap(ipv6_carriers))
@settings(max_examples=300, deadline=None)
def test_every_ipv6_carrier_of_a_metadata_address_is_metadata(text):
    assert is_metadata(parse_host(text)), text
    assert is_metadata(parse_url(f"http://{text}:80/")), text


_LABEL = st.from_regex(r"[a-z][a-z0-9-]{0,10}[a-z0-9]", fullmatch=True)


@given(base=st.lists(_LABEL, min_size=1, max_size=3), tld=st.sampled_from(["com", "org", "io"]),
       evil=st.lists(_LABEL, min_size=1, max_size=2))
@settings(max_examples=300, deadline=None)
def test_allowlist_is_dot_bounded(base, tld, evil):
    allowed = ".".join([*base, tld])
    allow = [allowed]
    assert host_allowed(parse_host(allowed), allow)
    assert host_allowed(parse_host(f"{evil[0]}.{allowed}."), allow)
    assert not host_allowed(parse_host(f"{evil[0]}-{allowed}"), allow)
    assert not host_allowed(parse_host(f"{allowed}.{'.'.join(evil)}.example"), allow)
    assert not host_allowed(parse_host(f"x{allowed}"), allow)


@given(st.text(max_size=80))
@settings(max_examples=500, deadline=None)
def test_scanners_never_raise(text):
    """Every word of every command passes through here: arbitrary text must never raise."""
    for ep in endpoints_in_word(text) + endpoints_in_word(text, bare=True) + endpoints_in_text(text):
        assert ep.host and ep.host == ep.host.lower()
        is_metadata(ep), is_loopback(ep), host_allowed(ep, DEFAULT_ALLOW)
    parse_host(text), parse_url(text)


_URLISH = st.text(alphabet="htp:/\\@[]%.:0123456789abcdefx-_#?{},", max_size=40)


@given(_URLISH)
@settings(max_examples=500, deadline=None)
def test_url_shaped_noise_never_raises(text):
    for candidate in (text, "http://" + text, "TCP:" + text, "/dev/tcp/" + text):
        endpoints_in_word(candidate, bare=True)
        endpoints_in_text(candidate)


_DOT_SPELLINGS = [".", "\u3002", "\uff0e", "\uff61", "%2e", "%2E"]


@st.composite
def obfuscated_metadata_urls(draw) -> str:
    """A metadata address in any inet_aton spelling, then dressed up the way an attacker would."""
    host = draw(st.sampled_from(METADATA_V4).flatmap(ipv4_spellings))
    if draw(st.booleans()):  # percent-encode some characters of the host
        host = "".join(f"%{ord(c):02x}" if c != "." and draw(st.booleans()) else c for c in host)
    host = host.replace(".", draw(st.sampled_from(_DOT_SPELLINGS)))
    host += "." * draw(st.integers(0, 2))
    userinfo = draw(st.sampled_from(["", "github.com@", "user:pass@", "a@b@"]))
    port = draw(st.sampled_from(["", ":80", ":8080"]))
    scheme = draw(st.sampled_from(["http://", "HTTP://", "https://", "gopher://", "dict://", "http:\\\\", "http:/"]))
    path = draw(st.sampled_from(["", "/", "/latest/meta-data/", "?x=1", "#frag", "\\latest"]))
    return f"{scheme}{userinfo}{host}{port}{path}"


@given(obfuscated_metadata_urls())
@settings(max_examples=400, deadline=None)
def test_obfuscated_metadata_urls_are_detected(url):
    assert any(is_metadata(ep) for ep in endpoints_in_word(url)), url
    assert any(is_metadata(ep) for ep in endpoints_in_text(f"print(get('{url}'))")), url


def test_idn_lookalikes_are_not_the_allowlisted_host():
    assert not host_allowed(parse_host("g\u0456thub.com"), DEFAULT_ALLOW)  # Cyrillic i: a different name
    assert parse_host("g\u0456thub.com").host.startswith("xn--")
    assert host_allowed(parse_host("\uff47\uff49\uff54\uff48\uff55\uff42.com"), DEFAULT_ALLOW)  # fullwidth = same name
