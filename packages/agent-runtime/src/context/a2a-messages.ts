import { randomUUID } from "node:crypto";
import { type Artifact, type Message, type Part, Role } from "@a2a-js/sdk";

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

export function textArtifact(artifactId: string, name: string, text: string): Artifact {
  return { artifactId, name, description: "", parts: [textPart(text)], metadata: undefined, extensions: [] };
}
