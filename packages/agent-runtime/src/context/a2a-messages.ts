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

/** A data part: JSON the client reads as data (A2A 0.3: `{ kind: "data", data, metadata }`). */
export function dataPart(data: Record<string, unknown>, metadata?: Record<string, unknown>): Part {
  return { content: { $case: "data", value: data }, metadata, filename: "", mediaType: "application/json" };
}

export function agentMessage(
  text: string,
  ids: { taskId: string; contextId: string },
  extraParts: Part[] = [],
): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    parts: [textPart(text), ...extraParts],
    taskId: ids.taskId,
    contextId: ids.contextId,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function textArtifact(
  artifactId: string,
  name: string,
  text: string,
  extraParts: Part[] = [],
): Artifact {
  return {
    artifactId,
    name,
    description: "",
    parts: [textPart(text), ...extraParts],
    metadata: undefined,
    extensions: [],
  };
}
