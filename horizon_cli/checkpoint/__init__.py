"""Checkpoint integrity: RFC 8785 canonical JSON and ``stateHash`` seal/verify.

Library only (no click). Public API::

    canonicalize(value) -> bytes            # RFC 8785; raises CanonicalError
    state_hash(document) -> str             # "sha256:<hex>" of canonical(document minus stateHash)
    seal_document(document) -> dict         # copy with stateHash set
    verify_document(document) -> VerifyResult  # .ok .expected .actual .hints
    loads_strict(data, name) -> Any         # strict parse; InputError(name:line)
"""

from __future__ import annotations

from horizon_cli.checkpoint.hashing import VerifyResult, seal_document, state_hash, verify_document
from horizon_cli.checkpoint.jcs import CanonicalError, CheckpointError, canonicalize, format_number
from horizon_cli.checkpoint.strict import loads_strict

__all__ = [
    "CanonicalError",
    "CheckpointError",
    "VerifyResult",
    "canonicalize",
    "format_number",
    "loads_strict",
    "seal_document",
    "state_hash",
    "verify_document",
]
