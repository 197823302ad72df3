"""Static evaluation of constant shell arithmetic (``$(( 1024 * 1024 ))``).

Only integer literals and ``+ - * / %`` with parentheses: anything else (variables,
``**``, assignments) is left unresolved. Results wrap like bash's 64-bit integers.
"""

from __future__ import annotations

import ast
import re

_CONSTANT_EXPR = re.compile(r"[0-9\s+\-*/%()]+\Z")
_MAX_LEN = 200  # longer constant expressions are not worth the parse (nor the risk)


def evaluate(expr: str) -> int | None:
    """The value of a constant arithmetic expression, or None when it is not constant."""
    if len(expr) > _MAX_LEN or not _CONSTANT_EXPR.match(expr) or not expr.strip():
        return None
    try:
        tree = ast.parse(expr.strip(), mode="eval")
        return _eval(tree.body)
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError, MemoryError):
        return None


def _wrap(value: int) -> int:
    return (value + 2**63) % 2**64 - 2**63


def _eval(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return _wrap(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _eval(node.operand)
        if operand is None:
            return None
        return _wrap(-operand) if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left), _eval(node.right)
        if left is None or right is None:
            return None
        return _binop(node.op, left, right)
    return None


def _binop(op: ast.operator, a: int, b: int) -> int | None:
    if isinstance(op, ast.Add):
        return _wrap(a + b)
    if isinstance(op, ast.Sub):
        return _wrap(a - b)
    if isinstance(op, ast.Mult):
        return _wrap(a * b)
    if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and b != 0:
        # bash (like C) truncates toward zero; the remainder takes the dividend's sign.
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return _wrap(quotient) if not isinstance(op, ast.Mod) else _wrap(a - b * quotient)
    return None
