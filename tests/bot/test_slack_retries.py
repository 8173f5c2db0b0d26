"""The Web API client retries a dropped connection (slack_sdk's default) as well as a 429."""

from __future__ import annotations

import asyncio
import json

from bot.deps import make_web_client


async def test_a_dropped_connection_is_retried(settings):
    connections = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        await reader.readuntil(b"\r\n\r\n")
        if connections == 1:  # Slack's edge (or a proxy) hangs up before answering
            writer.transport.abort()
            return
        body = json.dumps({"ok": True, "channel": "C1", "ts": "1.000001"}).encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        client = make_web_client(settings.model_copy(update={"slack_api_url": f"http://127.0.0.1:{port}/api/"}),
                                 "xoxb-test")
        resp = await client.chat_postMessage(channel="C1", text="hello")
        assert resp["ts"] == "1.000001" and connections == 2
    finally:
        server.close()
        await server.wait_closed()
