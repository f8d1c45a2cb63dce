import { randomUUID } from "node:crypto";

interface Part {
  kind?: string;
  text?: string;
}
interface SendResult {
  kind?: string;
  parts?: Part[];
  status?: { state?: string; message?: { parts?: Part[] } };
  artifacts?: { parts?: Part[] }[];
}

/** The JSON-RPC endpoint an agent's card names (A2A 0.3: agent-card.json, or 0.2's agent.json). */
export async function rpcEndpoint(baseUrl: string): Promise<string> {
  for (const path of ["/.well-known/agent-card.json", "/.well-known/agent.json"]) {
    const response = await fetch(new URL(path, baseUrl));
    if (response.ok) return ((await response.json()) as { url: string }).url;
  }
  throw new Error(`${baseUrl} serves no agent card`);
}

const texts = (parts: Part[] | undefined) => (parts ?? []).map((part) => part.text ?? "").join("");

/**
 * One turn over A2A `message/send` (blocking), the same request to both fleets: the user's text in a
 * conversation (contextId). Resolves to the answer's text: every artifact's and the final status
 * message's, or the reply message's.
 */
export async function sendTurn(endpoint: string, contextId: string, text: string): Promise<string> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: randomUUID(),
      method: "message/send",
      params: {
        message: {
          kind: "message",
          role: "user",
          messageId: randomUUID(),
          contextId,
          parts: [{ kind: "text", text }],
        },
        configuration: { blocking: true },
      },
    }),
    signal: AbortSignal.timeout(300_000),
  });
  const body = (await response.json()) as { result?: SendResult; error?: { message: string } };
  if (!body.result) throw new Error(`${endpoint}: ${body.error?.message ?? `HTTP ${response.status}`}`);
  const result = body.result;
  if (result.kind === "message") return texts(result.parts);
  return [
    ...(result.artifacts ?? []).map((artifact) => texts(artifact.parts)),
    texts(result.status?.message?.parts),
  ].join("\n");
}
