"""A Python a2a-sdk 1.x agent for interop tests: A2A protocol 1.0 over JSON-RPC, served by uvicorn on loopback.

Built the way the A2A project's "helloworld" sample builds one (an AgentExecutor subclass, a
DefaultRequestHandler with an InMemoryTaskStore, the SDK's agent-card and JSON-RPC routes, uvicorn), but
it answers every message with "<name> echo: <text>" as a completed task. Its card declares only a
JSONRPC 1.0 interface, so a caller must speak 1.0 (no v0.3 compat). Like a2a_echo_agent.py it records
what it received (contextId, text, metadata) so tests can check what a caller forwarded:
GET /_test/received.
Input: a JSON object as argv[1]: {"name", "description"?, "port"?}. Prints `listening <port>` once
serving; stops when stdin closes. Runs in the a2a-sdk 1.x venv (python/requirements-a2a1.txt).
"""

import asyncio
import json
import sys
from typing import Any

from a2a.helpers import new_task_from_user_message, new_text_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from a2a.utils.constants import PROTOCOL_VERSION_1_0
from google.protobuf import json_format
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from loopback_server import bind_loopback, serve_until_stdin_closes


class EchoAgentExecutor(AgentExecutor):
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
                # Protobuf Structs: MessageToDict gives the JSON the caller sent.
                "metadata": json_format.MessageToDict(message.metadata) if message else {},
                "requestMetadata": context.metadata,
            }
        )
        task = context.current_task
        if task is None:
            # The 1.x request handler wants the Task before any status or artifact update.
            assert message is not None
            task = new_task_from_user_message(message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        reply = f"{self.name} echo: {text}"
        await updater.add_artifact([new_text_part(reply)], name="echo", last_chunk=True)
        await updater.complete(new_text_message(reply, context_id=task.context_id, task_id=task.id))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build_card(name: str, description: str, url: str) -> AgentCard:
    return AgentCard(
        name=name,
        description=description,
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(protocol_binding="JSONRPC", protocol_version=PROTOCOL_VERSION_1_0, url=url)
        ],
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

    executor = EchoAgentExecutor(name)
    description = args.get("description") or f"{name} echo agent (Python a2a-sdk 1.x, A2A 1.0)"
    card = build_card(name, description, f"http://127.0.0.1:{port}/")
    handler = DefaultRequestHandler(agent_executor=executor, task_store=InMemoryTaskStore(), agent_card=card)

    async def received(_request: Request) -> JSONResponse:
        return JSONResponse(executor.received)

    app = Starlette(
        routes=[
            *create_agent_card_routes(agent_card=card),
            *create_jsonrpc_routes(request_handler=handler, rpc_url="/"),
            Route("/_test/received", received, methods=["GET"]),
        ]
    )

    await serve_until_stdin_closes(app, sock, port)


if __name__ == "__main__":
    asyncio.run(main())
