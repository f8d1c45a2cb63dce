import * as reading from "@switchboard/openapi-tools/reading";
import { type Description, type Operation, operationsOf } from "@switchboard/openapi-tools/reading";
import type { CorpusEntry } from "../src/index.js";

/** One call the corpus test makes: the user's line, and the request it must reach the API as. */
export interface Call {
  /** "call <tool> <arguments>", which the scripted model turns into that tool call. */
  prompt: string;
  operation: Operation;
  /** The security scheme whose credential the request must carry (undefined: none). */
  scheme: string | undefined;
  /** Whether a request the fake received is this call's (its method and path). */
  matches(request: { method: string; path: string }): boolean;
}

/** The read and the change tried on one description, and the settings its agent runs with. */
export interface Exercise {
  /** Where the description's paths are served on the fake (its first server's path). */
  apiRoot: string;
  read: Call;
  change: Call;
  /** The agent's settings against a fake at `url`. */
  env(url: string): Record<string, string>;
  /** Scheme name → the credential the fake accepts (what `env` makes the agent send). */
  credentials: Record<string, string>;
}

/** The path of the description's first server, its variables at their defaults ("" for none or "/"). */
export function apiRootOf(document: Record<string, unknown>): string {
  const server = (
    (document.servers ?? []) as Array<{ url?: string; variables?: Record<string, { default?: string }> }>
  )[0];
  let url = server?.url ?? "/";
  for (const [name, variable] of Object.entries(server?.variables ?? {}))
    url = url.replaceAll(`{${name}}`, variable.default ?? "");
  const path = new URL(url, "http://server.invalid").pathname.replace(/\/+$/, "");
  return path;
}

/** How much a call needs: required parameters and a required body, fewest first. */
function weight(operation: Operation): number {
  return (
    operation.parameters.filter((parameter) => parameter.required).length + (operation.body?.required ? 1 : 0)
  );
}

/** The operation of that kind that needs least (then the first in the description), if any. */
function simplest(operations: Operation[], read: boolean): Operation | undefined {
  return operations
    .filter((operation) => operation.read === read && operation.method !== "HEAD" && !operation.deprecated)
    .sort((a, b) => weight(a) - weight(b))[0];
}

/** A valid example of the operation's arguments, from openapi-tools (A's `exampleArgumentsOf`). */
function argumentsOf(operation: Operation): Record<string, unknown> {
  const example = (reading as Record<string, unknown>).exampleArgumentsOf as
    | ((operation: Operation) => Record<string, unknown>)
    | undefined;
  if (!example) throw new Error("openapi-tools has no exampleArgumentsOf yet (part A)");
  return example(operation);
}

/** The read and the change to try on a description, as its generated agent offers them. */
export async function exerciseOf(
  description: Description,
  entry: CorpusEntry,
  prefix: string,
): Promise<Exercise> {
  const { operations } = operationsOf(description.resolved);
  const inScope = entry.generate?.tags
    ? operations.filter((operation) => operation.tags.some((tag) => entry.generate?.tags?.includes(tag)))
    : operations;
  const read = simplest(inScope, true);
  const change = simplest(inScope, false);
  if (!read || !change)
    throw new Error(`${entry.name} has no ${read ? "change" : "read"} operation in scope`);
  const apiRoot = apiRootOf(description.document);
  const call = (operation: Operation): Call => {
    const path = new RegExp(
      `^${(apiRoot + operation.path).replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`,
    );
    return {
      operation,
      prompt: `call ${operation.tool} ${JSON.stringify(argumentsOf(operation))}`,
      scheme: Object.keys(operation.security[0] ?? {})[0],
      matches: (request) => request.method === operation.method && path.test(request.path),
    };
  };
  return {
    apiRoot,
    read: call(read),
    change: call(change),
    env: (url) => ({ [`${prefix}_API_URL`]: `${url}${apiRoot}` }),
    credentials: {},
  };
}
