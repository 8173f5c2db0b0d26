"""`synthbot serve` (placeholder until its issue lands: registers nothing runnable)."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("serve", help="(not built yet)")
    p.set_defaults(func=lambda args, settings: (print("synthbot serve is not built yet"), 1)[1])
