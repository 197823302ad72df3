"""Helpers shared by adapters: flattening content blocks and parsing tool arguments."""

from __future__ import annotations

from typing import Any

import orjson


def block_text(content: Any, text_types: tuple[str, ...] = ("text", "input_text", "output_text")) -> str:
    """Join the text of a content value: a string, or a list of ``{type, text}`` blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type", "text") in text_types:
                text = block.get("text")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    if isinstance(content, dict):
        return block_text([content], text_types)
    return str(content)


def as_output(value: Any) -> str:
    """A tool output as text: strings as-is, blocks joined, other JSON serialized."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(b, (dict, str)) for b in value):
        text = block_text(value)
        if text or not value:
            return text
    if value is None:
        return ""
    return dumps_text(value)


def parse_arguments(value: Any) -> Any:
    """Tool arguments: a JSON-object string becomes a dict; anything else stays as given."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith(("{", "[")):
            try:
                return orjson.loads(stripped)
            except orjson.JSONDecodeError:
                return value
    return value


def dumps_text(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return str(value)


def str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)
