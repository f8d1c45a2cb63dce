"""A Python a2a-sdk 0.3 agent for interop tests, served by uvicorn on loopback.

It answers every message with "<name> echo: <text>" as a completed task and records what it received
(contextId, text, metadata) so tests can check what a caller forwarded: GET /_test/received.
Input: a JSON object as argv[1]: {"name", "description"?, "port"?}. Prints `listening <port>` once
serving; stops when stdin closes.
"""

import asyncio
import json
import sys
from typing import Any

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, Part, TextPart
from a2a.utils import new_agent_text_message, new_task
from starlette.requests import Request
from starlette.responses import JSONResponse

from loopback_server import bind_loopback, serve_until_stdin_closes


class EchoExecutor(AgentExecutor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.received: list[dict[str, Any]] = []

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        message = context.message
        self.received.append(
            {
                "contextId": context.context_id,
                "taskId": context.task_id,
                "text": text,
                "metadata": (message.metadata if message else None) or {},
                "requestMetadata": context.metadata or {},
            }
        )
        task = context.current_task
        if task is None:
            assert message is not None
            task = new_task(message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        reply = f"{self.name} echo: {text}"
        await updater.add_artifact([Part(root=TextPart(text=reply))], name="echo")
        await updater.complete(new_agent_text_message(reply, task.context_id, task.id))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build_card(name: str, description: str, url: str) -> AgentCard:
    return AgentCard(
        name=name,
        description=description,
        url=url,
        version="0.1.0",
        preferred_transport="JSONRPC",
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[
            AgentSkill(
                id="echo",
                name="Echo",
                description=f"Repeats the message back, prefixed with '{name} echo:'",
                tags=["echo", "test"],
                examples=["hello"],
            )
        ],
    )


async def main() -> None:
    args = json.loads(sys.argv[1])
    name: str = args["name"]
    sock, port = bind_loopback(args.get("port"))

    executor = EchoExecutor(name)
    card = build_card(name, args.get("description") or f"{name} echo agent (Python a2a-sdk 0.3)", f"http://127.0.0.1:{port}/")
    handler = DefaultRequestHandler(agent_executor=executor, task_store=InMemoryTaskStore())
    app = A2AStarletteApplication(agent_card=card, http_handler=handler).build()

    async def received(_request: Request) -> JSONResponse:
        return JSONResponse(executor.received)

    app.add_route("/_test/received", received, methods=["GET"])

    await serve_until_stdin_closes(app, sock, port)


if __name__ == "__main__":
    asyncio.run(main())
