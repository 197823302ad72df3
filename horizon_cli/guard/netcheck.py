"""Network rules: metadata servers (HZ301), uploads (HZ302), connections (HZ303), reverse shells (HZ304).

Hosts are compared as parsed, normalized endpoints (``guard.net``), never as strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from horizon_cli.guard import net
from horizon_cli.guard.argv import parse_options, subcommand_args
from horizon_cli.guard.config import GuardConfig
from horizon_cli.guard.model import Verdict
from horizon_cli.guard.view import WRITE_OPS, Hit, SegmentView

# Options taking a value, so operands (hosts) can be told apart from option values.
VALUE_OPTIONS: dict[str, tuple[str, ...]] = {
    "nc": ("-e", "-c", "-p", "-s", "-w", "-i", "-x", "-X", "-q", "-O", "-I", "-T", "-W"),
    "ping": ("-c", "-i", "-p", "-s", "-t", "-w", "-W", "-I", "-M", "-Q", "-l", "-m", "-F"),
    "ssh": ("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R",
            "-S", "-W", "-w", "-B"),
    "telnet": ("-l", "-b", "-e", "-n"),
    "dig": ("-p", "-t", "-c", "-x", "-k", "-y", "-f", "-b", "-q"),
    "curl": ("-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "-F", "--form",
             "--form-string", "-T", "--upload-file", "-o", "--output", "-H", "--header", "-X", "--request", "-u",
             "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-c", "--cookie-jar", "-K",
             "--config", "-x", "--proxy", "-w", "--write-out", "-m", "--max-time", "--connect-timeout",
             "--resolve", "--connect-to", "-r", "--range", "-C", "-E", "--cert", "--key", "--cacert", "-Y", "-y",
             "-z", "--retry", "--limit-rate", "-U", "--proxy-user", "--url", "-D", "--dump-header", "--json",
             "--netrc-file", "--interface", "--dns-servers", "--preproxy", "--socks5", "--socks5-hostname"),
    "wget": ("-O", "--output-document", "-o", "--output-file", "-P", "--directory-prefix", "-e", "--execute",
             "--post-data", "--post-file", "--body-data", "--body-file", "--method", "--header", "-U",
             "--user-agent", "--user", "--password", "-t", "--tries", "-T", "--timeout", "-i", "--input-file"),
}
for _alias, _base in (("ncat", "nc"), ("netcat", "nc"), ("ping6", "ping"), ("mosh", "ssh"), ("sftp", "ssh"),
                      ("host", "dig"), ("nslookup", "dig"), ("traceroute", "ping")):
    VALUE_OPTIONS[_alias] = VALUE_OPTIONS[_base]

_IP_CHARS = re.compile(r"\[?[0-9a-fA-FxX.:]+(%\w+)?\]?")
BARE_HOST_TOOLS = frozenset({"nc", "ncat", "netcat", "telnet", "ssh", "sftp", "mosh", "ping", "ping6", "dig",
                             "host", "nslookup", "traceroute", "ftp", "lftp", "whois"})
URL_TOOLS = frozenset({"curl", "wget", "http", "https", "xh", "aria2c", "httpie"})
CURL_UPLOAD = ("-d", "--data", "--data-binary", "--data-raw", "--data-ascii", "--data-urlencode", "-F", "--form",
               "--form-string", "-T", "--upload-file", "--json")
WGET_UPLOAD = ("--post-data", "--post-file", "--body-data", "--body-file")
SEND_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
STREAM_TOOLS = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "openssl", "wscat", "websocat", "ssh",
                          "sftp", "ftp", "lftp", "mail", "mailx", "mutt", "sendmail"})
REVERSE_SHELL_OPTIONS = frozenset({"-e", "-c", "--exec", "--sh-exec", "--lua-exec"})


def network_hits(view: SegmentView, config: GuardConfig, inert: bool) -> list[Hit]:
    endpoints = list(_endpoints(view))
    hits = [_metadata_hit(ep) for ep in endpoints if net.is_metadata(ep)]
    if hits and not inert:
        return hits[:1]
    if inert:
        return []
    tcp = _dev_tcp(view)
    if view.exe not in config.net_tools and not tcp:
        return []
    if view.exe == "git" and not _git_network(view):
        return []
    return _connection_hits(view, config, endpoints, tcp)


def _git_network(view: SegmentView) -> bool:
    """git subcommands that talk to a remote (`git remote -v` only reads the config)."""
    if view.sub == "remote":
        return subcommand_args("git", view.values)[:1] in (["add"], ["set-url"], ["update"], ["prune"], ["show"])
    return view.sub in ("push", "pull", "fetch", "clone", "ls-remote", "submodule", "archive")


def _connection_hits(view: SegmentView, config: GuardConfig, endpoints: list, tcp: bool) -> list[Hit]:
    hits: list[Hit] = []
    if _reverse_shell(view):
        hits.append(Hit("HZ304", config.verdict("HZ304", Verdict.DENY), f"{view.exe} connects a shell to the network"))
    unlisted = sorted({ep.host for ep in endpoints if not net.host_allowed(ep, config.allow_hosts)})
    if _sends_data(view, tcp) and (unlisted or not endpoints):
        where = ", ".join(unlisted) or "an unknown host"
        hits.append(Hit("HZ302", config.verdict("HZ302", Verdict.DENY), f"{view.exe} sends data to {where}"))
    where = f"{', '.join(unlisted)} (not on classify.network.allow_hosts)" if unlisted else ", ".join(
        sorted({ep.host for ep in endpoints})) or "the network"
    hits.append(Hit("HZ303", config.verdict("HZ303", Verdict.GATE), f"{view.exe} connects to {where}"))
    return [h for h in hits if h.verdict is not None]


def _metadata_hit(ep) -> Hit:
    return Hit("HZ301", Verdict.DENY, f"reaches the cloud metadata server {ep.host} (written {ep.raw!r})")


def _endpoints(view: SegmentView) -> Iterable:
    bare = _bare_positions(view)
    for index, word in enumerate(view.args):
        value = word.value
        yield from net.endpoints_in_word(value, bare=index in bare or _ip_literal(value))
    for redirect in view.segment.redirects:
        if redirect.target is not None:
            yield from net.endpoints_in_word(redirect.target.value)
        if redirect.body and (view.exe in STREAM_TOOLS or view.exe in URL_TOOLS):
            yield from net.endpoints_in_text(redirect.body)


def _bare_positions(view: SegmentView) -> set[int]:
    """Indices of args that name a host by themselves (``nc HOST PORT``, ``curl HOST/path``)."""
    if view.exe not in BARE_HOST_TOOLS and view.exe not in URL_TOOLS:
        return set()
    options = parse_options(view.values, VALUE_OPTIONS.get(view.exe, ()))
    if view.exe in URL_TOOLS:
        return {i for i, op in zip(options.operand_index, options.operands) if "://" not in op and _hostish(op)}
    if view.exe in ("dig", "host", "nslookup"):
        return {i for i, op in zip(options.operand_index, options.operands) if not op.startswith("+")}
    return set(options.operand_index[:1])


def _ip_literal(text: str) -> bool:
    """A word that is an IP address in some written form (dotted, bracketed, IPv6), for any command."""
    return ("." in text or ":" in text) and _IP_CHARS.fullmatch(text) is not None


def _hostish(text: str) -> bool:
    head = text.split("/", 1)[0]
    return bool(head) and ("." in head or head.isdigit() or head.startswith("[") or head.startswith("0x"))


def _dev_tcp(view: SegmentView) -> bool:
    return any(
        r.target is not None and r.target.value.startswith(("/dev/tcp/", "/dev/udp/")) for r in view.segment.redirects
    )


def _reverse_shell(view: SegmentView) -> bool:
    values = view.values
    if view.exe in ("nc", "ncat", "netcat"):
        return bool(REVERSE_SHELL_OPTIONS.intersection(values)) or any(v.startswith("--sh-exec") for v in values)
    if view.exe == "socat":
        return any(v.upper().startswith(("EXEC:", "SYSTEM:")) for v in values)
    if view.exe in ("bash", "sh", "zsh", "dash") and _dev_tcp(view):
        return True
    return False


def _sends_data(view: SegmentView, tcp: bool) -> bool:
    exe, values = view.exe, view.values
    if tcp:
        return any(r.op in WRITE_OPS for r in view.segment.redirects) or view.receives_input
    if exe == "curl":
        options = parse_options(values, VALUE_OPTIONS["curl"])
        method = (options.value("-X", "--request") or "").upper()
        return options.has(*CURL_UPLOAD) or method in SEND_METHODS
    if exe == "wget":
        options = parse_options(values, VALUE_OPTIONS["wget"])
        return options.has(*WGET_UPLOAD) or (options.value("--method") or "").upper() in SEND_METHODS
    if exe in ("http", "https", "xh", "httpie"):
        return any(v.upper() in SEND_METHODS for v in values[:1]) or any(
            ("=" in v or "@" in v) and "://" not in v and not v.startswith("-") for v in values[1:]
        )
    if exe in ("scp", "rsync"):
        options = parse_options(values, ("-P", "-i", "-o", "-e", "-F", "-S", "-l", "-c", "-J", "--rsh", "--port",
                                          "--include", "--exclude", "--filter", "-f", "--files-from", "--exclude-from",
                                          "--include-from", "--password-file", "--rsync-path", "--log-file"))
        operands = [op for op in options.operands if not op.startswith("-")]
        return len(operands) >= 2 and _remote(operands[-1]) and not all(_remote(op) for op in operands[:-1])
    if exe == "git":
        args = subcommand_args("git", values)
        return view.sub == "push" and any("://" in a or _remote(a) for a in args) or (
            view.sub == "remote" and args[:1] in (["add"], ["set-url"])
        )
    if exe in STREAM_TOOLS:
        return view.receives_input or (exe in ("mail", "mailx", "mutt") and "-a" in values)
    return False


def _remote(operand: str) -> bool:
    """scp/rsync/git remote syntax: ``[user@]host:path`` or ``scheme://``."""
    if "://" in operand:
        return True
    head, colon, _ = operand.partition(":")
    return bool(colon) and "/" not in head and bool(head)
