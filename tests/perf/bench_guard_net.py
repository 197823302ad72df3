"""Throughput of the network and path normalizers that run on every word of every command.

Prints, for the words of ../shared/corpora/nl2bash.cm (12,607 real one-liners, ~95k words):
- ``endpoints_in_word`` (plain and ``bare=True``) per word, and how many words name an endpoint;
- ``match_any`` against the default secret patterns for literal words, and for glob words
  (``could match`` through the NFA intersection);
- ``endpoints_in_text`` over whole commands (as for code payloads);
- the cost of the metadata-encoding checks on a fixed set of evasive spellings.

Run: python tests/perf/bench_guard_net.py [--repeat N] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import os
import shlex
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = Path(os.environ.get("HORIZON_SHARED", ROOT.parent / "shared")) / "corpora" / "nl2bash.cm"

SECRETS = [
    "~/.aws/**", "~/.ssh/id_*", "~/.ssh/*_key", "**/.env", "**/.env.*", "~/.netrc", "**/.netrc", "**/_netrc",
    "~/.git-credentials", "**/.git-credentials", "~/.npmrc", "~/.pypirc", "~/.docker/config.json", "~/.kube/config",
    "~/.config/gcloud/**", "~/.azure/**", "~/.gnupg/**", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx",
    "**/credentials.json", "**/service-account*.json", "/proc/*/environ", "/etc/shadow", "/etc/gshadow",
    "/etc/sudoers", "/var/run/secrets/**", "/run/secrets/**", "~/.config/gh/hosts.yml", "~/.vault-token",
    "~/.terraform.d/credentials*",
]
EXCLUDE = [
    "**/*.pub", "**/.env.example", "**/.env.sample", "**/.env.template", "**/.env.dist", "**/.env.defaults",
    "**/credentials.example.json",
]
EVASIONS = [
    "http://2852039166/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/", "http://169.254.43518/",
    "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::a9fe:a9fe]/", "http://169.254.169.254.nip.io/",
    "http://github.com@169.254.169.254/", "http://%31%36%39.254.169.254/", "http://metadata.google.internal/",
    "http://7147006462/", "/dev/tcp/169.254.169.254/80", "TCP:169.254.169.254:80",
]


def words_of(path: Path) -> tuple[list[str], list[str]]:
    commands = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    words: list[str] = []
    for command in commands:
        try:
            words.extend(shlex.split(command))
        except ValueError:
            words.extend(command.split())
    return commands, words


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    if not args.corpus.exists():
        raise SystemExit(f"corpus not found: {args.corpus} (set HORIZON_SHARED)")

    from horizon_cli.guard.net import endpoints_in_text, endpoints_in_word, is_metadata
    from horizon_cli.guard.paths import match_any

    commands, words = words_of(args.corpus)
    globs = [w for w in words if any(c in w for c in "*?[")]
    literals = [w for w in words if w not in globs]
    print(f"corpus: {len(commands)} commands, {len(words)} words ({len(globs)} with glob characters)")

    def per_word(seconds: float, count: int) -> str:
        return f"{seconds / count * 1e6:7.2f} us/word  ({count / seconds:,.0f} words/s)"

    t = best_of(args.repeat, lambda: [endpoints_in_word(w) for w in words])
    named = sum(1 for w in words if endpoints_in_word(w))
    print(f"endpoints_in_word           {per_word(t, len(words))}; {named} words name an endpoint")
    t = best_of(args.repeat, lambda: [endpoints_in_word(w, bare=True) for w in words])
    print(f"endpoints_in_word bare=True {per_word(t, len(words))}")
    t = best_of(args.repeat, lambda: [match_any(w, SECRETS, EXCLUDE) for w in literals])
    hits = sum(1 for w in literals if match_any(w, SECRETS, EXCLUDE))
    print(f"match_any literal words     {per_word(t, len(literals))}; {hits} secret paths")
    t = best_of(args.repeat, lambda: [match_any(w, SECRETS, EXCLUDE, word_is_glob=True) for w in globs])
    hits = sum(1 for w in globs if match_any(w, SECRETS, EXCLUDE, word_is_glob=True))
    print(f"match_any glob words        {per_word(t, len(globs))}; {hits} could match a secret")
    t = best_of(args.repeat, lambda: [endpoints_in_text(c) for c in commands])
    print(f"endpoints_in_text commands  {t / len(commands) * 1e6:7.2f} us/command")
    t = best_of(args.repeat, lambda: [any(is_metadata(e) for e in endpoints_in_word(w)) for w in EVASIONS * 100])
    print(f"metadata evasions           {t / (len(EVASIONS) * 100) * 1e6:7.2f} us/word (all {len(EVASIONS)} detected: "
          f"{all(any(is_metadata(e) for e in endpoints_in_word(w)) for w in EVASIONS)})")


if __name__ == "__main__":
    main()
