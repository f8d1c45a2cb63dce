import { homedir, tmpdir } from "node:os";
import { isSwitchboardError, redactSecrets, type SwitchboardError } from "@switchboard/common";
import { HttpStatusError } from "../vendor-client/http-json.js";

/**
 * The SwitchboardError an error is or was caused by: LangChain's agent wraps what a model call or a
 * middleware threw in a MiddlewareError, the original as its cause.
 */
export function switchboardErrorIn(error: unknown): SwitchboardError | undefined {
  for (let at = error, depth = 0; at && depth < 6; depth += 1) {
    if (isSwitchboardError(at)) return at;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

function isMongoFailure(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && /^Mongo(ServerSelection|Network|Topology|NotConnected)/.test(name);
}

/** A line of a stack trace: `    at fn (/path/file.js:1:2)`. */
const STACK_FRAME = /^\s+at\s/m;
/**
 * The classes whose messages are written for people: a plain Error (tools and guards throw those as
 * sentences) and LangChain's ToolException, made to be shown to the model (MCP tools throw it). Not
 * JavaScript's own errors (TypeError, …): a program's mistake, whose words help no user.
 */
const READABLE_CLASSES = new Set(["Error", "ToolException"]);

/** The roots of this machine's files a message may name (its working directory, home, temp, the usual system roots). */
function machineRoots(): string[] {
  const roots = [process.cwd(), homedir(), tmpdir()].filter((root) => root.length > 1);
  return [...new Set(roots)];
}
const SYSTEM_PATH =
  /(^|[\s'"(=:])(\/(work|home|root|tmp|var|usr|etc|opt|srv|app|proc|private|Users)\/|[A-Za-z]:\\|file:\/\/)|node_modules/;

/** A message names a file of this machine or holds a stack frame. */
function showsMachine(message: string): boolean {
  if (STACK_FRAME.test(message) || SYSTEM_PATH.test(message)) return true;
  return machineRoots().some((root) => message.includes(root));
}

/** langchain's wrap of a tool's arguments refused by its schema: its own message quotes the stack. */
function schemaRefusal(error: unknown): string | undefined {
  const wrapped = error as { "~brand"?: unknown; toolError?: unknown } | undefined;
  const inner = wrapped?.["~brand"] === "ToolInvocationError" ? wrapped.toolError : error;
  if (inner instanceof Error && inner.name === "ToolInputParsingException") return inner.message;
  if (inner instanceof Error && inner.constructor.name === "ToolInputParsingException") return inner.message;
  return undefined;
}

/**
 * What of an error people may read, or undefined when nothing is: a SwitchboardError's message
 * (anywhere in its causes); a vendor's refusal (`HttpStatusError`: its status, the call and the
 * vendor's words); arguments a tool's schema refused; a plain Error written as a sentence for
 * people (tools and guards throw those: "No Slack channel named …") or a ToolException. Never one
 * holding a stack frame or a path of this machine, nor JavaScript's own errors (TypeError, …) or a
 * thrown non-Error: those are a program's, and their detail goes to the log only. Secrets are removed.
 */
export function readableMessage(error: unknown): string | undefined {
  const known = switchboardErrorIn(error);
  if (known) return redactSecrets(known.message);
  if (error instanceof HttpStatusError)
    return redactSecrets(
      `the API answered HTTP ${error.status} to ${error.operation}${error.detail ? `: ${error.detail}` : ""}`,
    );
  const refused = schemaRefusal(error);
  if (refused !== undefined) return showsMachine(refused) ? undefined : refused;
  if (!(error instanceof Error) || !READABLE_CLASSES.has(error.name)) return undefined;
  const message = error.message.trim();
  if (!message || showsMachine(message)) return undefined;
  return redactSecrets(message);
}

/** How an error is named when its message is not for people: its code (ENOENT), else its class. */
export function failureKind(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && /^[\w.-]{1,40}$/.test(code)) return code;
  const name =
    error instanceof Error ? error.name || error.constructor.name : error === null ? "null" : typeof error;
  return /^[\w.-]{1,40}$/.test(name) ? name : "error";
}

/**
 * What a person reads when a turn fails: the problem and what to do, never a stack trace or a secret.
 */
export function describeFailure(error: unknown, agent: string): string {
  const known = switchboardErrorIn(error);
  if (known) return redactSecrets(known.message);
  const readable = readableMessage(error);
  const message = readable?.split("\n")[0] ?? "";
  if (isMongoFailure(error)) {
    return `The ${agent} agent cannot reach MongoDB to load or save this conversation (${message}). Nothing was lost; try again once MongoDB is back.`;
  }
  const status = statusOf(error);
  if (status === 401 || status === 403) {
    return `The LLM provider refused the ${agent} agent's credentials (HTTP ${status}): check the API key for LLM_PROVIDER.`;
  }
  if (status === 429)
    return `The LLM provider is rate-limiting the ${agent} agent (HTTP 429). Try again shortly.`;
  if (status !== undefined && status >= 500) {
    return `The LLM provider failed (HTTP ${status}) while the ${agent} agent was working. Try again shortly.`;
  }
  return readable
    ? `The ${agent} agent failed: ${message}`
    : `The ${agent} agent failed (${failureKind(error)}).`;
}
