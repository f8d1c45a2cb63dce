import { a2aRequests } from "@switchboard/utils/metrics";
import type { NextFunction, Request, Response } from "express";

/** Longest id accepted: ids become MongoDB keys and log fields. */
export const MAX_ID_LENGTH = 256;
// Printable characters only: no control characters, no NUL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const ID_FIELDS = ["contextId", "context_id", "taskId", "task_id", "messageId", "message_id"];

function badId(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return "must be a string";
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters`;
  if (CONTROL.test(value)) return "must not contain control characters";
  return undefined;
}

/** The first malformed id in an A2A request body (JSON-RPC params or an HTTP+JSON body). */
export function findBadId(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const root = body as Record<string, unknown>;
  const params = (root.params ?? root) as Record<string, unknown> | undefined;
  const message = (params?.message ?? params?.request) as Record<string, unknown> | undefined;
  const candidates: Array<[string, unknown]> = [];
  for (const field of ID_FIELDS) {
    if (message && typeof message === "object") candidates.push([`message.${field}`, message[field]]);
  }
  if (params && typeof params === "object") candidates.push(["id", params.id], ["name", params.name]);
  for (const [field, value] of candidates) {
    const problem = badId(value);
    if (problem) return `${field} ${problem}`;
  }
  return undefined;
}

/**
 * Refuses requests whose ids are not plain, bounded strings before the SDK stores anything: such
 * ids would become MongoDB keys and thread ids.
 */
export function checkIds(binding: "jsonrpc" | "rest") {
  return (req: Request, res: Response, next: NextFunction) => {
    const problem = findBadId(req.body);
    if (!problem) return next();
    a2aRequests.inc({ method: "unknown", outcome: "rejected" });
    const message = `Invalid params: ${problem}.`;
    if (binding === "jsonrpc") {
      const id = (req.body as { id?: unknown })?.id;
      const echoed = typeof id === "string" || typeof id === "number" ? id : null;
      return res.json({ jsonrpc: "2.0", id: echoed, error: { code: -32602, message } });
    }
    return res.status(400).json({ error: { code: 400, status: "INVALID_ARGUMENT", message } });
  };
}
