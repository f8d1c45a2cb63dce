import type { IncomingMessage, ServerResponse } from "node:http";

/** One entry of a 422's `errors`, as GitHub reports field problems. */
export interface GithubFieldError {
  resource: string;
  field?: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "unprocessable" | "custom";
  message?: string;
  value?: unknown;
}

const docs = "https://docs.github.com/rest";

/** Thrown by route handlers; the server turns it into GitHub's error JSON with this status. */
export class GithubHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: GithubFieldError[],
    readonly documentationUrl = docs,
  ) {
    super(message);
  }

  get body(): Record<string, unknown> {
    return {
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
      documentation_url: this.documentationUrl,
      status: String(this.status),
    };
  }

  static notFound(): GithubHttpError {
    return new GithubHttpError(404, "Not Found");
  }

  static validation(...errors: GithubFieldError[]): GithubHttpError {
    return new GithubHttpError(422, "Validation Failed", errors);
  }

  /** What GitHub says when the JSON schema check fails, e.g. a required key is absent. */
  static invalidRequest(detail: string): GithubHttpError {
    return new GithubHttpError(422, `Invalid request.\n\n${detail}`);
  }
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GithubHttpError(400, "Problems parsing JSON");
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = status === 204 ? "" : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(status === 204 ? {} : { "content-type": "application/json; charset=utf-8" }),
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
