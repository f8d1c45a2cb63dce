import { randomUUID } from "node:crypto";
import {
  type Artifact,
  type Message,
  type Part,
  Role,
  type TaskState,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";

// The SDK's types are ts-proto shapes where every field is required; these build them.

export function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

export function agentMessage(text: string, ids: { taskId: string; contextId: string }): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    taskId: ids.taskId,
    contextId: ids.contextId,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function statusUpdate(
  ids: { taskId: string; contextId: string },
  state: TaskState,
  text?: string,
  metadata?: Record<string, unknown>,
): TaskStatusUpdateEvent {
  return {
    taskId: ids.taskId,
    contextId: ids.contextId,
    status: {
      state,
      message: text === undefined ? undefined : agentMessage(text, ids),
      timestamp: new Date().toISOString(),
    },
    metadata,
  };
}

export function textArtifact(artifactId: string, name: string, text: string): Artifact {
  return { artifactId, name, description: "", parts: [textPart(text)], metadata: undefined, extensions: [] };
}
