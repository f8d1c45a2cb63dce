import type { IncomingMessage, ServerResponse } from "node:http";

/** Jira's error body: every 4xx from Jira Cloud REST v3 uses this shape. */
export interface JiraErrorBody {
  errorMessages: string[];
  errors: Record<string, string>;
}

/** Thrown by route handlers; the server turns it into Jira's error JSON with this status. */
export class JiraHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: JiraErrorBody,
  ) {
    super(body.errorMessages[0] ?? Object.values(body.errors)[0] ?? `HTTP ${status}`);
  }

  static messages(status: number, ...errorMessages: string[]): JiraHttpError {
    return new JiraHttpError(status, { errorMessages, errors: {} });
  }

  static fields(status: number, errors: Record<string, string>): JiraHttpError {
    return new JiraHttpError(status, { errorMessages: [], errors });
  }
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw JiraHttpError.messages(400, "Unexpected character in request body: the body must be JSON.");
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json;charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
