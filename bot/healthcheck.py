"""`python -m bot.healthcheck [URL]`: the container health check. Exit 0 when /healthz says ok, else 1 and why.

Standard library only, so a probe every 30 s costs a bare interpreter start (not synthbot's imports).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:3000/healthz"


def probe(url: str = DEFAULT_URL, timeout: float = 4.0) -> tuple[bool, str]:
    """(healthy, one line saying why): /healthz answered 200 with ok true."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            body = json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as exc:  # 503: starting or unavailable, with the reason in the body
        try:
            body = json.loads(exc.read() or b"{}")
        except ValueError:
            body = {}
        finally:
            exc.close()  # the error holds the response's socket
        return False, f"{exc.code} {_summary(body)}"
    except (OSError, ValueError) as exc:
        return False, f"no answer from {url}: {exc}"
    return bool(body.get("ok")), _summary(body)


def _summary(body: dict) -> str:
    details = " ".join(f"{key}={body[key]}" for key in ("status", "store", "slack", "rules") if key in body)
    return details or "no details"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    healthy, why = probe(args[0] if args else DEFAULT_URL)
    print(why)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
