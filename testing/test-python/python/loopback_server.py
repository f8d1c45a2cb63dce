"""Serving an ASGI app on loopback for the test peers: bind first (so a requested port of 0 is known
before a card carrying the URL is built), print `listening <port>` once serving, stop when stdin
closes (see stdin_watch)."""

import asyncio
import socket

import uvicorn

from stdin_watch import exit_when_stdin_closes


def bind_loopback(port: int | None) -> tuple[socket.socket, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", int(port or 0)))
    return sock, sock.getsockname()[1]


async def serve_until_stdin_closes(app, sock: socket.socket, port: int) -> None:
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    loop = asyncio.get_running_loop()

    def stop() -> None:
        loop.call_soon_threadsafe(setattr, server, "should_exit", True)

    exit_when_stdin_closes(stop)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if serving.done():
            await serving
            raise RuntimeError("uvicorn stopped during start-up")
        await asyncio.sleep(0.02)
    print(f"listening {port}", flush=True)
    await serving
