"""Path normalization and path-aware globbing for secret and persistence checks."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_path
from horizon_cli.guard.paths import (
    could_match,
    display_path,
    expand_braces,
    glob_match,
    is_inside_tree,
    match_any,
    normalize_path,
)

SECRETS = [
    "~/.aws/**", "~/.ssh/id_*", "~/.ssh/*_key", "**/.env", "**/.env.*", "~/.netrc", "**/.netrc",
    "~/.git-credentials", "~/.npmrc", "~/.pypirc", "~/.docker/config.json", "~/.kube/config",
    "~/.config/gcloud/**", "**/*.pem", "**/*.key", "**/credentials.json", "/proc/*/environ", "/etc/shadow",
    "/etc/gshadow", "/var/run/secrets/**", "~/.gnupg/**",
]
SECRET_EXCLUDES = [
    "**/*.pub", "**/.env.example", "**/.env.sample", "**/.env.template", "**/.env.dist",
    "**/credentials.example.json",
]
PERSISTENCE = [
    "~/.bashrc", "~/.bash_profile", "~/.profile", "~/.zshrc", "~/.zprofile", "~/.zshenv", "~/.config/fish/**",
    "~/.ssh/authorized_keys", "~/.ssh/config", "/etc/cron*/**", "/var/spool/cron/**", "/etc/profile",
    "/etc/profile.d/**", "/etc/sudoers", "/etc/sudoers.d/**", "**/.git/hooks/**", "/etc/hosts",
    "/etc/ld.so.preload", "~/.config/autostart/**", "/etc/systemd/**", "~/.config/systemd/**",
]


# --- normalize_path ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path,expected",
    [
        ("/etc/", "/etc"),
        ("/etc", "/etc"),
        ("//etc///passwd", "/etc/passwd"),
        ("/etc/./passwd", "/etc/passwd"),
        ("/a/b/../../etc/shadow", "/etc/shadow"),
        ("/../../etc/shadow", "/etc/shadow"),
        ("/", "/"),
        ("./.env", ".env"),
        ("././x/./y/", "x/y"),
        ("x/../.env", ".env"),
        ("a/../../x", "../x"),
        ("../../../../home/ubuntu/.aws/credentials", "../../../../home/ubuntu/.aws/credentials"),
        (".", "."),
        ("a/..", "."),
        ("~", "~"),
        ("~/", "~"),
        ("~/.aws//credentials", "~/.aws/credentials"),
        ("~/../bob/.aws", "/home/bob/.aws"),
        ("~/../../etc/shadow", "/etc/shadow"),
        ("~bob/.ssh/id_rsa", "/home/bob/.ssh/id_rsa"),
        ("~root/.ssh/id_rsa", "/root/.ssh/id_rsa"),
        ("$HOME/.aws/credentials", "~/.aws/credentials"),
        ("${HOME}/.aws", "~/.aws"),
        ("$HOMEDIR/x", "$HOMEDIR/x"),
        ("", ""),
    ],
)
def test_normalize_path(path, expected):
    assert normalize_path(path) == expected


@given(st.lists(st.sampled_from(["a", "b", ".", "..", "", ".env"]), max_size=8), st.sampled_from(["", "/", "~/"]))
@settings(max_examples=300, deadline=None)
def test_normalize_path_is_idempotent(segments, root):
    once = normalize_path(root + "/".join(segments))
    assert normalize_path(once) == once
    assert "//" not in once and "/./" not in once
    assert once == "/" or not once.endswith("/")


# --- glob_match --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path,pattern",
    [
        ("~/.aws/credentials", "~/.aws/**"),
        ("~/.aws", "~/.aws/**"),
        ("/home/ubuntu/.aws/credentials", "~/.aws/**"),
        ("/Users/alice/.aws/credentials", "~/.aws/**"),
        ("/root/.aws/credentials", "~/.aws/**"),
        ("../../../../home/ubuntu/.aws/credentials", "~/.aws/**"),
        (".aws/config", "~/.aws/**"),
        ("~/.aws/sso/cache/x.json", "~/.aws/**"),
        ("~/.ssh/id_rsa", "~/.ssh/id_*"),
        ("~/.ssh/id_ed25519", "~/.ssh/id_*"),
        ("/etc/ssh/ssh_host_rsa_key", "**/*_key"),
        (".env", "**/.env"),
        ("./.env", "**/.env"),
        ("app/.env", "**/.env"),
        ("/srv/app/.env", "**/.env"),
        (".env.production", "**/.env.*"),
        ("server.pem", "*.pem"),
        ("certs/server.pem", "*.pem"),
        ("/proc/self/environ", "/proc/*/environ"),
        ("/proc/1/environ", "/proc/*/environ"),
        ("/proc/self/../1/environ", "/proc/*/environ"),
        ("/etc/shadow", "/etc/shadow"),
        ("/etc//shadow", "/etc/shadow"),
        ("../../etc/shadow", "/etc/shadow"),
        ("/etc/cron.d/job", "/etc/cron*/**"),
        ("/etc/crontab", "/etc/cron*"),
        ("repo/.git/hooks/pre-commit", "**/.git/hooks/**"),
        (".git/hooks/post-checkout", "**/.git/hooks/**"),
        ("~/.ssh/authorized_keys", "~/.ssh/authorized_keys"),
        ("/var/run/secrets/kubernetes.io/serviceaccount/token", "/var/run/secrets/**"),
        ("~/.config/fish/config.fish", "~/.config/fish/**"),
        ("~/.ssh/id_rsa", "~/.ssh/{id_*,*_key}"),
        ("a/b", "a/[b]"),
        ("a/c", "a/[!b]"),
        ("x/*", "x/[*]"),
        ("deep/a/b/c/d.key", "**/*.key"),
        ("a/x/y/b", "a/**/b"),
        ("a/b", "a/**/b"),
    ],
)
def test_glob_match(path, pattern):
    assert glob_match(path, pattern)


@pytest.mark.parametrize(
    "path,pattern",
    [
        ("~/.awsx/credentials", "~/.aws/**"),
        ("~/.ssh/known_hosts", "~/.ssh/id_*"),
        (".envrc", "**/.env"),
        ("env", "**/.env"),
        ("config/environment.ts", "**/.env.*"),
        ("config/environment.ts", "**/.env"),
        ("src/netrc_parser.py", "**/.netrc"),
        ("src/netrc_parser.py", "~/.netrc"),
        ("credentials.example.json", "**/credentials.json"),
        ("gcloud.tgz", "~/.config/gcloud/**"),
        ("/proc/1/task/1/cmdline", "/proc/*/environ"),
        ("/proc/environ", "/proc/*/environ"),
        ("/etc/shadow.bak", "/etc/shadow"),
        ("etc/shadow", "/etc/shadow"),
        ("/etc/shadow", "etc/shadow"),
        ("a/b/c", "a/*"),
        ("a/x/c", "a/?"),
        ("a/b", "a/[!b]"),
        ("a/x", "a/[*]"),
        ("ab", "a/**/b"),
        ("/home/u/.profile.bak", "~/.profile"),
    ],
)
def test_glob_no_match(path, pattern):
    assert not glob_match(path, pattern)


# --- match_any with the policy defaults --------------------------------------------------------


@pytest.mark.parametrize(
    "path,expected",
    [
        ("~/.netrc", "~/.netrc"),
        (".env", "**/.env"),
        ("./.env", "**/.env"),
        (".env.production", "**/.env.*"),
        (".env.preprod", "**/.env.*"),
        ("~/.config/gcloud/application_default_credentials.json", "~/.config/gcloud/**"),
        ("/Users/alice/.aws/credentials", "~/.aws/**"),
        ("../../../../home/ubuntu/.aws/credentials", "~/.aws/**"),
        ("/root/.aws/credentials", "~/.aws/**"),
        ("$HOME/.aws/credentials", "~/.aws/**"),
        ("~/.git-credentials", "~/.git-credentials"),
        ("~/.ssh/id_rsa", "~/.ssh/id_*"),
        ("~/.ssh/id_ed25519", "~/.ssh/id_*"),
        ("~/.ssh/deploy_key", "~/.ssh/*_key"),
        ("~/.docker/config.json", "~/.docker/config.json"),
        ("~/.kube/config", "~/.kube/config"),
        ("/var/run/secrets/kubernetes.io/serviceaccount/token", "/var/run/secrets/**"),
        ("/proc/self/environ", "/proc/*/environ"),
        ("/etc/shadow", "/etc/shadow"),
        ("tls/server.key", "**/*.key"),
        ("svc/credentials.json", "**/credentials.json"),
        ("~/.gnupg/private-keys-v1.d/x.key", "**/*.key"),
        ("/proc/self/root/etc/shadow", "/etc/shadow"),  # /proc/PID/root is '/'
        ("/proc/1/cwd/.env", "**/.env"),  # /proc/PID/cwd is the process's working directory
        ("/proc/self/task/7/root/root/.aws/credentials", "~/.aws/**"),
    ],
)
def test_secret_paths(path, expected):
    assert match_any(path, SECRETS, SECRET_EXCLUDES) == expected


@pytest.mark.parametrize(
    "path",
    [
        ".env.sample", ".env.template", ".env.example", ".env.dist", "config/environment.ts", "src/netrc_parser.py",
        "credentials.example.json", "gcloud.tgz", "~/.ssh/id_rsa.pub", "~/.ssh/known_hosts", "README.md",
        "src/app.py", "/etc/passwd", ".envrc", "environment", "~/.aws.bak", "keys/readme.txt", "/proc/cpuinfo",
    ],
)
def test_benign_lookalikes(path):
    assert match_any(path, SECRETS, SECRET_EXCLUDES) is None


@pytest.mark.parametrize(
    "path",
    [
        "~/.bashrc", "/home/u/.bashrc", "~/.zshrc", "~/.profile", "~/.config/fish/config.fish",
        "~/.ssh/authorized_keys", "~/.ssh/config", "/etc/cron.d/x", "/etc/cron.daily/x",
        "/var/spool/cron/crontabs/root",
        "/etc/profile.d/z.sh", "/etc/sudoers.d/x", ".git/hooks/pre-commit", "/etc/hosts", "/etc/ld.so.preload",
        "~/.config/systemd/user/x.service", "/etc/systemd/system/x.service", "~/.config/autostart/x.desktop",
    ],
)
def test_persistence_paths(path):
    assert match_any(path, PERSISTENCE) is not None


@pytest.mark.parametrize("path", ["build/out.txt", "~/.bashrc.d.txt", "/etc/hostsx", "src/.git-hooks/x", "/etc/cro"])
def test_not_persistence(path):
    assert match_any(path, PERSISTENCE) is None


@pytest.mark.parametrize("path", ["~/.AWS/Credentials", "/Users/alice/.Aws/credentials", ".ENV", "~/.SSH/ID_RSA"])
def test_case_insensitive_file_systems(path):
    """macOS and Windows file systems ignore case: ~/.AWS/Credentials is the secret file."""
    assert match_any(path, SECRETS, SECRET_EXCLUDES) is not None
    assert match_any(path.replace("AWS", "A?S").replace("ENV", "EN?"), SECRETS, SECRET_EXCLUDES, word_is_glob=True)


def test_brace_words_with_literal_variants():
    assert match_any("{README.md,.env}", SECRETS, SECRET_EXCLUDES) == "**/.env"
    assert match_any("{a,b}.txt", SECRETS, SECRET_EXCLUDES) is None
    assert match_any("{src/*.py,.env}", SECRETS, SECRET_EXCLUDES, word_is_glob=True) == "**/.env"
    assert could_match("{a,.env}", "**/.env", word_is_glob=False)


def test_long_code_words_are_fast_enough():
    """Long awk/perl programs as words must not blow up the glob intersection."""
    word = "{ total += $1 } END { print total/1024 \" Mb total\" }" * 5
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=False) is None


def test_match_any_edge_cases():
    assert match_any("~/.aws/credentials", []) is None
    assert match_any(".env", ["**/.env"], ["**/.env"]) is None
    assert match_any(".env", ["**/*.pem", "**/.env"]) == "**/.env"  # first that matches, in order


# --- could_match / globs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "word,is_glob,expected",
    [
        (".en?", True, "**/.env"),
        ("~/.aws/*", True, "~/.aws/**"),
        ("~/.aws/cred*", True, "~/.aws/**"),
        ("~/.a{w,x}s/credentials", True, "~/.aws/**"),
        ("/proc/*/environ", False, "/proc/*/environ"),
        ("/proc/[0-9]*/environ", True, "/proc/*/environ"),
        ("*/.aws/credentials", False, "~/.aws/**"),
        ("~/.ssh/*", True, "~/.ssh/id_*"),
        ("~/.ssh/id_*", True, "~/.ssh/id_*"),
        (".env.*", True, "**/.env.*"),
        (".env.exampl?", True, "**/.env.*"),
        ("/etc/shado?", True, "/etc/shadow"),
        ("*.pem", True, "**/*.pem"),
        ("~/.*/credentials", True, "~/.aws/**"),
        ("$HOME/.ssh/id_*", True, "~/.ssh/id_*"),
        ("../*/../.env", True, "**/.env"),
    ],
)
def test_globs_that_could_match(word, is_glob, expected):
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=is_glob) == expected
    assert could_match(word, expected, word_is_glob=is_glob)


@pytest.mark.parametrize(
    "word,is_glob",
    [
        ("*.txt", True),  # '*' never produces a leading dot: '.env.txt' is not reachable
        ("src/*.py", True),
        ("~/.ssh/*.pub", True),  # only public keys: excluded
        (".env.exampl[e]", True),
        (".env.{example,sample}", True),
        ("~/*/credentials", True),  # bash '*' does not match '.aws'
        ("docs/*.md", True),
        ("[*].txt", False),  # a quoted '*': the literal file '*.txt'
    ],
)
def test_globs_that_cannot_match(word, is_glob):
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=is_glob) is None


def test_escaped_glob_characters_are_literal():
    assert could_match("~/.aws/cred[*]", "~/.aws/**", word_is_glob=False)
    assert not could_match("[*].txt", "**/.env.*", word_is_glob=False)
    assert could_match("a[?]", "a?", word_is_glob=True)  # the literal name 'a?' matches the pattern 'a?'
    assert not could_match("a[?]", "ab", word_is_glob=True)


def test_dynamic_parts_may_contain_anything():
    # '$X.txt' -> '*.txt': an unknown expansion may begin with a dot, so '.env.txt' is possible.
    assert could_match("*.txt", "**/.env.*", word_is_glob=False)
    assert not could_match("*.txt", "**/.env.*", word_is_glob=True)
    # '$DIR/id_rsa': the unknown part may span directories.
    assert could_match("*/id_rsa", "~/.ssh/id_*", word_is_glob=False)
    # '.ssh/id_x.py' is possible (fail closed), but only the wildcard would name the key.
    assert could_match("*.py", "~/.ssh/id_*", word_is_glob=False)
    assert not could_match("*.py", "~/.ssh/id_*", word_is_glob=False, require_literal=True)
    assert could_match("*", "**/*.pem", word_is_glob=True)  # 'cat "$f"' may read a key
    assert not could_match("*", "**/*.pem", word_is_glob=True, require_literal=True)
    assert not could_match("*.py", "/etc/shadow", word_is_glob=False)
    assert not could_match("/tmp/*.log", "~/.aws/**", word_is_glob=True)


def test_could_match_static_word_is_glob_match():
    assert could_match(".env", "**/.env", word_is_glob=False)
    assert not could_match(".env.sample", "**/.env", word_is_glob=False)


_SEGMENTS = st.sampled_from(["a", ".env", ".aws", "credentials", "id_rsa", "x.pem", "..", ".", "~", "b.pub"])


@given(st.lists(_SEGMENTS, min_size=1, max_size=5), st.sampled_from(SECRETS + PERSISTENCE))
@settings(max_examples=400, deadline=None)
def test_could_match_agrees_with_glob_match_on_static_words(segments, pattern):
    """Invariant: a word without wildcards could match exactly when it matches (NFA == regex)."""
    path = "/".join(segments)
    from horizon_cli.guard.globnfa import WORD_GLOB, intersects
    from horizon_cli.guard.paths import pattern_forms

    literal = normalize_path(path)
    forms = [(literal, WORD_GLOB)]
    if literal == ".." or literal.startswith("../"):
        tail = literal
        while tail == ".." or tail.startswith("../"):
            tail = tail[3:]
        forms.append(("/" + tail, WORD_GLOB))
    assert intersects(forms, list(pattern_forms(pattern))) == glob_match(path, pattern)


@given(st.lists(_SEGMENTS, min_size=1, max_size=4), st.sampled_from(SECRETS), st.data())
@settings(max_examples=300, deadline=None)
def test_a_glob_could_match_whatever_it_expands_to(segments, pattern, data):
    """Invariant: turning the last character of a segment into a wildcard never loses a match."""
    path = "/".join(segments)
    if not glob_match(path, pattern):
        return
    index = data.draw(st.sampled_from([i for i, seg in enumerate(segments) if len(seg) > 2] or [None]))
    if index is None:
        return
    for wildcard, is_glob in (("?", True), ("*", True), ("*", False)):
        masked = "/".join(segments[:index] + [segments[index][:-1] + wildcard] + segments[index + 1 :])
        assert could_match(masked, pattern, word_is_glob=is_glob), (masked, pattern)
        assert could_match(masked, pattern, word_is_glob=is_glob, require_literal=True), (masked, pattern)
        assert match_any(masked, [pattern], word_is_glob=is_glob) == pattern


@pytest.mark.parametrize(
    "word", ["*", "foo*", "*txt*", "/stuff/*", "*/*/*", "zsh*", "[ef]*", "./*", "?*"]
)
def test_bare_wildcards_are_no_evidence_of_a_secret(word):
    """'cat foo*' could expand to foo.pem (fail closed by default); require_literal asks for evidence."""
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=True) is not None
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=True, require_literal=True) is None


@pytest.mark.parametrize(
    "word,expected", [(".*", "~/.aws/**"), ("*.pem", "**/*.pem"), ("*.json", "**/credentials.json")]
)
def test_globs_with_literal_evidence(word, expected):
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=True) == expected
    assert match_any(word, SECRETS, SECRET_EXCLUDES, word_is_glob=True, require_literal=True) == expected


# --- tree, display, braces ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path,inside",
    [
        ("src/app.py", True), (".env", True), (".", True), ("a/../b", True), ("./x", True),
        ("/tmp/x", False), ("~/x", False), ("../x", False), ("a/../../x", False), ("$HOME/x", False),
        ("$OUT/x", False), ("..", False),
    ],
)
def test_is_inside_tree(path, inside):
    assert is_inside_tree(path) is inside


def test_display_path():
    assert display_path("~/.aws/credentials") == "~/.aws/credentials"
    assert display_path("a\nb") == "a\\x0ab"
    assert display_path("~/../bob/.aws") == "~/../bob/.aws (= /home/bob/.aws)"
    assert display_path("../x") == "../x"


def test_expand_braces():
    assert expand_braces("~/.a{w,x}s/c") == ["~/.aws/c", "~/.axs/c"]
    assert expand_braces("{a,b}{1,2}") == ["a1", "a2", "b1", "b2"]
    assert expand_braces("x{a,{b,c}}y") == ["xay", "xby", "xcy"]
    assert expand_braces("{a}") == ["{a}"]
    assert expand_braces("${HOME}") == ["${HOME}"]
    assert len(expand_braces("{a,b}" * 10)) == 64  # bounded


# --- conformance data -----------------------------------------------------------------------------


def _cases(category: str) -> list[dict]:
    path = shared_path("conformance", "classify_cases.jsonl")
    return [c for c in map(json.loads, path.read_text().splitlines()) if c["category"] == category]


def test_conformance_benign_lookalike_files_are_not_secrets():
    for case in _cases("benign-lookalike"):
        words = shlex.split(case["command"])
        if words[0] == "cat" and "#" not in case["command"]:
            assert all(match_any(w, SECRETS, SECRET_EXCLUDES) is None for w in words[1:]), case["command"]


def test_conformance_secret_read_spellings_hit_a_secret():
    """Direct spellings (no variables, no line continuations) name a secret path once words are split."""
    for case in _cases("secret-read-spelling"):
        command = case["command"].replace("${IFS}", " ")
        if "=" in command or "\\\n" in command:
            continue  # needs the parser's variable tracking / continuation joining
        words = shlex.split(command)
        is_glob = any(c in command for c in "*?")
        hits = [
            match_any(w.replace("$$", "*"), SECRETS, SECRET_EXCLUDES, word_is_glob=is_glob and "$$" not in w)
            for w in words[1:]
        ]
        assert any(hits), case["command"]


@given(st.text(alphabet="ab./~*?[]!{},\\$-^", max_size=24), st.sampled_from(SECRETS + PERSISTENCE))
@settings(max_examples=400, deadline=None)
def test_path_functions_never_raise(word, pattern):
    """Unbalanced brackets, stray braces and escapes are words too: no exceptions, bounded time."""
    normalize_path(word), is_inside_tree(word), display_path(word)
    glob_match(word, pattern)
    could_match(word, pattern, word_is_glob=True)
    match_any(word, [pattern], SECRET_EXCLUDES, word_is_glob=False)
    glob_match("a/b", word)  # the word as a pattern


_GLOB_PIECES = st.sampled_from(["a", "b", ".", "/", "*", "?", "[ab]", "[!a]", "**/", "/**", "x.pem", ".env"])


@given(st.lists(_GLOB_PIECES, min_size=1, max_size=5), st.lists(_GLOB_PIECES, min_size=1, max_size=5),
       st.sampled_from(["glob", "segment", "dynamic"]))
@settings(max_examples=400, deadline=None)
def test_head_tail_prefilter_never_changes_the_answer(word_parts, pattern_parts, mode):
    """Invariant: the cheap literal head/tail test only skips pairs the automaton would reject."""
    from horizon_cli.guard import globnfa

    word, pattern = "".join(word_parts), "".join(pattern_parts)
    exact = globnfa._intersects(
        globnfa.compiled(((word, mode),)), globnfa.compiled(((pattern, globnfa.PATTERN),)), None, False
    )
    assert globnfa.intersects([(word, mode)], [pattern]) == exact
