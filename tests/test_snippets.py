"""Shell snippets found in scripts and Markdown (horizon_cli.snippets)."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from horizon_cli.snippets import Snippet, extract_snippets, file_kind, info_language

README = textwrap.dedent(
    """\
    # mytool

    Install it:

    ```bash
    pip install mytool
    mytool --init
    ```

    Some Python, which is not shell:

    ```python
    import os; os.system("rm -rf /")
    ```

    A session:

    ```console
    $ mytool status
    all good
    $ curl -fsSL https://example.com/install.sh \\
        | sh
    installing...
    $ cat <<EOF > conf
    > a = 1
    > EOF
    ```

    1. Clean up (inside a list item):

       ```sh
       rm -rf ./build
       ```

    ~~~~ {.zsh .numberLines}
    echo ~~~ not a fence
    ~~~~

    ```Shell title="deploy"
    ./deploy.sh
    ```
    """
)

AGENTS_MD = textwrap.dedent(
    """\
    # AGENTS.md

    ## Build and test

    - Build: `make build` (inline code is not a block)

    ```shell
    make build
    make test
    ```

    ```
    rm -rf / # an untagged block is not classified
    ```
    """
)

SKILL_MD = textwrap.dedent(
    """\
    ---
    name: cleanup
    description: Removes stale caches
    ---

    Run:

    ````bash
    ```
    rm -rf ~/.cache/stale
    ````
    """
)


def test_file_kind_by_extension():
    assert file_kind("scripts/build.sh", b"") == "shell"
    assert file_kind("x.BASH", b"") == "shell"
    assert file_kind("t/test.bats", b"") == "shell"
    assert file_kind("x.ksh", b"") == "shell"
    assert file_kind("README.md", b"") == "markdown"
    assert file_kind("docs/page.mdx", b"") == "markdown"
    assert file_kind("notes.markdown", b"") == "markdown"
    assert file_kind("main.py", b"print(1)") is None
    assert file_kind("home/.bashrc", b"") == "shell"
    assert file_kind(".envrc", b"") == "shell"
    assert file_kind(".cshrc", b"") is None  # csh is not a POSIX shell
    assert file_kind(".gitignore", b"") is None


def test_file_kind_by_shebang():
    assert file_kind("bin/tool", b"#!/bin/sh\necho") == "shell"
    assert file_kind("bin/tool", b"#!/usr/bin/env bash\n") == "shell"
    assert file_kind("bin/tool", b"#!/usr/bin/env -S bash -eu\n") == "shell"
    assert file_kind("bin/tool", b"#! /bin/dash -e\n") == "shell"
    assert file_kind("bin/tool", b"#!/usr/bin/env python3\n") is None
    assert file_kind("bin/tool", b"no shebang") is None
    assert file_kind("bin/tool", b"#!") is None


def test_shell_script_is_one_snippet():
    text = "#!/bin/sh\nset -eu\nrm -rf \"$TMP\"\n"
    assert extract_snippets("run.sh", text) == [Snippet(text, 1, 1, "script")]
    assert extract_snippets("run.sh", "\n  \n") == []


def test_bom_is_dropped():
    assert extract_snippets("run.sh", "\ufeffls\n") == [Snippet("ls\n", 1, 1, "script")]


def test_bats_tests_become_functions_line_for_line():
    text = '@test "cleans up" {\n  run rm -rf build\n}\n'
    (snippet,) = extract_snippets("t/clean.bats", text)
    assert snippet.text == "bats_test() {\n  run rm -rf build\n}\n"
    assert snippet.text.count("\n") == text.count("\n")


def test_readme_blocks():
    snippets = extract_snippets("README.md", README)
    assert snippets == [
        Snippet("pip install mytool\nmytool --init\n", 6, 1, "script"),
        Snippet("mytool status", 19, 3, "lines"),
        Snippet("curl -fsSL https://example.com/install.sh \\\n    | sh", 21, 3, "lines"),
        Snippet("cat <<EOF > conf\na = 1\nEOF", 24, 3, "lines"),
        Snippet("rm -rf ./build\n", 32, 4, "script"),
        Snippet("echo ~~~ not a fence\n", 36, 1, "script"),
        Snippet("./deploy.sh\n", 40, 1, "script"),
    ]


def test_lines_point_at_the_file():
    lines = README.split("\n")
    for snippet in extract_snippets("README.md", README):
        first = snippet.text.split("\n")[0]
        assert lines[snippet.line - 1][snippet.col - 1:] == first


def test_agents_md_only_tagged_blocks():
    assert extract_snippets("AGENTS.md", AGENTS_MD) == [Snippet("make build\nmake test\n", 8, 1, "script")]


def test_skill_md_longer_fence_contains_shorter():
    assert extract_snippets("SKILL.md", SKILL_MD) == [Snippet("```\nrm -rf ~/.cache/stale\n", 9, 1, "script")]


def test_unclosed_fence_runs_to_end():
    assert extract_snippets("a.md", "```sh\nls\nrm x") == [Snippet("ls\nrm x\n", 2, 1, "script")]


def test_crlf_and_empty_blocks():
    text = "```bash\r\n\r\n```\r\n```sh\r\necho hi\r\n```\r\n"
    assert extract_snippets("a.md", text) == [Snippet("echo hi\n", 5, 1, "script")]


def test_four_space_indent_is_not_a_fence():
    assert extract_snippets("a.md", "    ```sh\n    rm -rf /\n    ```\n") == []


def test_backtick_info_with_backtick_is_not_a_fence():
    assert extract_snippets("a.md", "``` sh `x`\nls\n```\n") == []


def test_console_prompt_variants():
    text = "```console\n$\n$ ls\n  $ pwd\nfoo $ bar\n```\n"
    assert extract_snippets("a.md", text) == [Snippet("ls", 3, 3, "lines"), Snippet("pwd", 4, 5, "lines")]


def test_session_aliases_are_console():
    for tag in ("console", "shellsession", "sh-session", "ShellSession"):
        (snippet,) = extract_snippets("a.md", f"```{tag}\n$ ls\nout\n```\n")
        assert snippet.mode == "lines"


def test_info_language():
    assert info_language("bash") == "bash"
    assert info_language("  BASH  title=x") == "bash"
    assert info_language("{.bash .numberLines}") == "bash"
    assert info_language("{bash}") == "bash"
    assert info_language("sh,no_run") == "sh"
    assert info_language("") == ""


def test_unknown_kind_has_no_snippets():
    assert extract_snippets("main.py", "import os\n") == []
    assert extract_snippets("notes.txt", "```sh\nls\n```\n", kind="markdown") == [Snippet("ls\n", 2, 1, "script")]


# Invariant: every snippet of a script block is the exact block body, and its
# line/col point at where the body's first line starts in the file.
_body_line = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30).filter(
    lambda s: "```" not in s and "~~~" not in s and s.strip()
)


@settings(deadline=None)  # timing on a shared machine is not what is tested
@given(
    prefix=st.lists(st.sampled_from(["text", "", "# head", "- item"]), max_size=4),
    body=st.lists(_body_line, min_size=1, max_size=5),
    indent=st.integers(0, 3),
)
def test_script_block_roundtrip(prefix, body, indent):
    pad = " " * indent
    text = "\n".join([*prefix, f"{pad}```bash", *(pad + line for line in body), f"{pad}```", "after"]) + "\n"
    (snippet,) = extract_snippets("doc.md", text)
    assert snippet.text == "\n".join(body) + "\n"
    assert snippet.line == len(prefix) + 2
    assert snippet.col == indent + 1


_command = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=25).filter(
    lambda s: s.strip() and not s.endswith("\\") and "```" not in s
)
_output = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=25).filter(
    lambda s: not s.lstrip(" ").startswith(("$", ">")) and "```" not in s
)


@settings(deadline=None)  # timing on a shared machine is not what is tested
@given(st.lists(st.tuples(_command, st.lists(_output, max_size=2), st.integers(0, 2)), min_size=1, max_size=5))
def test_console_commands_roundtrip(session):
    # Invariant: every prompted command comes back exactly once, output lines never do,
    # and line/col point at the command's first character in the file.
    lines = ["```console"]
    for command, outputs, indent in session:
        lines.append(" " * indent + "$ " + command)
        lines.extend(outputs)
    lines.append("```")
    snippets = extract_snippets("s.md", "\n".join(lines) + "\n")
    assert [s.text for s in snippets] == [command for command, _, _ in session]
    for snippet in snippets:
        assert lines[snippet.line - 1][snippet.col - 1:] == snippet.text
