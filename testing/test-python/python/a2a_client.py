"""One A2A v0.3 `message/send` with the Python a2a-sdk 0.3 client; prints the outcome as one JSON line.

Input: a JSON object as argv[1]: {"url", "text", "contextId", "taskId"?}.
"""

import asyncio
import json
import sys
import uuid

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, Task, TextPart


def text_of(parts: list[Part]) -> str:
    return "".join(part.root.text for part in parts if isinstance(part.root, TextPart))


def reply_text(result: Task | Message) -> str:
    if isinstance(result, Message):
        return text_of(result.parts)
    if result.status.message is not None:
        return text_of(result.status.message.parts)
    return "".join(text_of(artifact.parts) for artifact in result.artifacts or [])


async def main() -> None:
    args = json.loads(sys.argv[1])
    async with httpx.AsyncClient(timeout=30) as http:
        # streaming=False makes the client send `message/send`, the call CAIPE's supervisor makes.
        config = ClientConfig(streaming=False, httpx_client=http)
        client = await ClientFactory.connect(args["url"], client_config=config)
        message = Message(
            role=Role.user,
            message_id=str(uuid.uuid4()),
            context_id=args["contextId"],
            task_id=args.get("taskId"),
            parts=[Part(root=TextPart(text=args["text"]))],
        )
        result: Task | Message | None = None
        async for event in client.send_message(message):
            result = event if isinstance(event, Message) else event[0]
        if result is None:
            raise RuntimeError("the agent sent no response")

    print(
        json.dumps(
            {
                "contextId": result.context_id,
                "taskId": result.task_id if isinstance(result, Message) else result.id,
                "state": None if isinstance(result, Message) else result.status.state.value,
                "text": reply_text(result),
                "raw": result.model_dump(mode="json", by_alias=True, exclude_none=True),
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
