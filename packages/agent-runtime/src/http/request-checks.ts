import type { NextFunction, Request, Response } from "express";
import { badWebhookUrl } from "../push/webhook-guard.js";
import { readPageToken } from "../tasks/task-list.js";
import type { RuntimeMetrics } from "../telemetry/metrics.js";

/** Longest id accepted: ids become MongoDB keys and log fields. */
export const MAX_ID_LENGTH = 256;
/** Deepest JSON accepted: MongoDB refuses documents nested past 100 levels. */
export const MAX_JSON_DEPTH = 64;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const ID_FIELDS = ["contextId", "context_id", "taskId", "task_id", "messageId", "message_id"];
const ROLES = new Set(["user", "agent", "ROLE_USER", "ROLE_AGENT"]);
// A v1 part holds exactly one of these; a v0.3 part names its kind.
const V1_CONTENT = ["text", "raw", "url", "data"];
const V03_KINDS: Record<string, string> = { text: "text", file: "file", data: "data" };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function badId(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return "must be a string";
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters`;
  if (CONTROL.test(value)) return "must not contain control characters";
  return undefined;
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function badPart(part: unknown, index: number): string | undefined {
  const where = `message.parts[${index}]`;
  if (!isObject(part)) return `${where} must be an object`;
  if (typeof part.kind === "string") {
    const field = V03_KINDS[part.kind];
    if (!field) return `${where}.kind must be text, file or data`;
    if (field === "text" && typeof part.text !== "string") return `${where}.text must be a string`;
    if (field !== "text" && !isObject(part[field])) return `${where}.${field} must be an object`;
    return undefined;
  }
  const present = V1_CONTENT.filter((field) => part[field] !== undefined && part[field] !== null);
  if (present.length !== 1) return `${where} must hold exactly one of ${V1_CONTENT.join(", ")}`;
  if (present[0] === "text" && typeof part.text !== "string") return `${where}.text must be a string`;
  return undefined;
}

function badMessage(message: unknown): string | undefined {
  if (message === undefined) return undefined;
  if (!isObject(message)) return "message must be an object";
  for (const field of ID_FIELDS) {
    const problem = badId(message[field]);
    if (problem) return `message.${field} ${problem}`;
  }
  // Required on every binding (A2A's Message.role); gRPC's proto cannot tell a missing role from
  // ROLE_UNSPECIFIED, which its JSON form leaves out, so both arrive here as undefined.
  if (message.role === undefined || message.role === null || message.role === "")
    return "message.role is required: user or agent";
  if (!ROLES.has(String(message.role))) return "message.role must be user or agent";
  if (!Array.isArray(message.parts)) return "message.parts must be an array";
  if (message.parts.length === 0) return "message.parts must hold at least one part";
  return message.parts.map(badPart).find(Boolean);
}

/** historyLength (tasks/get, GetTask, a send's configuration, a REST query): a count, 0 or more. */
function badHistoryLength(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const count = typeof value === "string" ? Number(value) : value;
  if (typeof count === "number" && Number.isInteger(count) && count >= 0) return undefined;
  return "historyLength must be a whole number, 0 or more";
}

/** tasks/list's pageToken: only one this agent gave as a nextPageToken (else the page would be empty). */
function badPageToken(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && readPageToken(value)) return undefined;
  return "pageToken is not one this agent gave: pass the nextPageToken of the previous page, or none for the first";
}

/** A webhook's authentication: v0.3 names one or more `schemes`, v1.0 one `scheme`. */
function badAuthentication(authentication: unknown): string | undefined {
  if (authentication === undefined || authentication === null) return undefined;
  if (!isObject(authentication)) return "the push notification authentication must be an object";
  const { schemes, scheme } = authentication;
  if (schemes !== undefined) {
    if (!Array.isArray(schemes) || schemes.length === 0 || !schemes.every((s) => typeof s === "string" && s))
      return "the push notification authentication.schemes must list at least one scheme";
  } else if (typeof scheme !== "string" || !scheme.trim()) {
    return "the push notification authentication must name its scheme (e.g. Bearer)";
  }
  return undefined;
}

/**
 * The push-notification configs a request carries: a config being set (v1.0 flat, v0.3
 * `pushNotificationConfig`) or one registered with a send (`configuration.…`).
 */
function pushConfigsIn(params: Json): Json[] {
  const configuration = isObject(params.configuration) ? params.configuration : {};
  const candidates = [
    "url" in params ? params : undefined,
    params.pushNotificationConfig,
    configuration.pushNotificationConfig,
    configuration.taskPushNotificationConfig,
  ];
  return candidates.filter(isObject);
}

/**
 * What is wrong with an A2A request's parameters (JSON-RPC `params`, or an HTTP+JSON body), before
 * the SDK stores a task or a turn runs: ids that would become MongoDB keys, message shapes the SDK
 * would only trip over after storing the task, and nesting MongoDB cannot store.
 */
export function findBadParams(params: unknown, allowPrivateWebhooks = false): string | undefined {
  if (params === undefined) return undefined;
  if (depthOf(params) > MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels`;
  if (!isObject(params)) return undefined; // the SDK answers non-object params itself
  const message = params.message ?? params.request;
  const problem = badMessage(message);
  if (problem) return problem;
  const configuration = isObject(params.configuration) ? params.configuration : {};
  const historyProblem = [params, configuration]
    .flatMap((holder) => [holder.historyLength, holder.history_length])
    .map(badHistoryLength)
    .find(Boolean);
  if (historyProblem) return historyProblem;
  const pageProblem = badPageToken(params.pageToken ?? params.page_token);
  if (pageProblem) return pageProblem;
  for (const config of pushConfigsIn(params)) {
    const configProblem =
      badWebhookUrl(config.url, allowPrivateWebhooks) ?? badAuthentication(config.authentication);
    if (configProblem) return configProblem;
  }
  for (const field of ["id", "name", "taskId"]) {
    const idProblem = badId(params[field]);
    if (idProblem) return `${field} ${idProblem}`;
  }
  return undefined;
}

/** Refuses malformed A2A requests with the binding's own error before anything is stored. */
export function checkParams(
  binding: "jsonrpc" | "rest",
  allowPrivateWebhooks: boolean,
  a2aRequests: RuntimeMetrics["a2aRequests"],
) {
  return (req: Request, res: Response, next: NextFunction) => {
    const body = req.body as unknown;
    const params = binding === "jsonrpc" ? (isObject(body) ? body.params : undefined) : body;
    // The HTTP+JSON binding takes GetTask's historyLength in the query string.
    const problem =
      findBadParams(params, allowPrivateWebhooks) ??
      (binding === "rest"
        ? findBadParams({
            historyLength: req.query.historyLength ?? req.query.history_length,
            pageToken: req.query.pageToken ?? req.query.page_token,
          })
        : undefined);
    if (!problem) return next();
    a2aRequests.inc({ method: "unknown", outcome: "rejected" });
    const message = `Invalid params: ${problem}.`;
    if (binding === "jsonrpc") {
      const id = isObject(body) ? body.id : undefined;
      const echoed = typeof id === "string" || typeof id === "number" ? id : null;
      return res.json({ jsonrpc: "2.0", id: echoed, error: { code: -32602, message } });
    }
    return res.status(400).json({ error: { code: 400, status: "INVALID_ARGUMENT", message } });
  };
}
