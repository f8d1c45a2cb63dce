import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type Description,
  exampleArgumentsOf,
  type Operation,
  operationsOf,
} from "@switchboard/openapi-tools/reading";
import { apiRootOf, type CorpusEntry } from "../src/index.js";

/**
 * The most operations offered as one tool each (openapi-tools' default bound, `maxTools`): past it the
 * agent offers `find_operations` and `call_operation`, and the test calls through the latter.
 */
const BOUND = 40;

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

/** The scheme the agent sends for an operation: the first requirement it has every credential of. */
function schemeFor(operation: Operation, auth: Record<string, string>): string | undefined {
  const met = operation.security.find((requirement) =>
    Object.keys(requirement).every((name) => name in auth),
  );
  return met ? Object.keys(met)[0] : undefined;
}

/**
 * The read and the change to try on a description, as its generated agent offers them: the agent's
 * own `AUTH` (its built env module) says which variables hold which scheme's credential; each gets a
 * test value, and the fake accepts exactly what the scheme makes of those.
 */
export async function exerciseOf(
  description: Description,
  entry: CorpusEntry,
  packageDir: string,
  prefix: string,
): Promise<Exercise> {
  const { AUTH: auth } = (await import(pathToFileURL(join(packageDir, "dist", "env.js")).href)) as {
    AUTH: Record<string, string>;
  };
  const variables: Record<string, string> = Object.fromEntries(
    [
      ...Object.values(auth)
        .join(" ")
        .matchAll(/\$\{(\w+)\}/g),
    ].map(([, name = ""]) => [name, `${name.toLowerCase()}-corpus`]),
  );
  const credentials = Object.fromEntries(
    Object.entries(auth).map(([scheme, template]) => [
      scheme,
      template.replace(/\$\{(\w+)\}/g, (_whole, name: string) => variables[name] ?? ""),
    ]),
  );
  const { operations } = operationsOf(description.resolved);
  const tags = entry.generate?.tags;
  const inScope = tags
    ? operations.filter((operation) => operation.tags.some((tag) => tags.includes(tag)))
    : operations;
  const read = simplest(inScope, true);
  const change = simplest(inScope, false);
  if (!read || !change)
    throw new Error(`${entry.name} has no ${read ? "change" : "read"} operation in scope`);
  const apiRoot = apiRootOf(description.document);
  const routed = inScope.length > BOUND;
  const call = (operation: Operation): Call => {
    const template = (apiRoot + operation.path).replace(/[.*+?^$()|[\]\\]/g, "\\$&");
    const path = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const args = exampleArgumentsOf(operation);
    return {
      operation,
      prompt: routed
        ? `call call_operation ${JSON.stringify({ operation: operation.tool, arguments: args })}`
        : `call ${operation.tool} ${JSON.stringify(args)}`,
      scheme: schemeFor(operation, auth),
      matches: (request) => request.method === operation.method && path.test(request.path),
    };
  };
  return {
    apiRoot,
    read: call(read),
    change: call(change),
    env: (url) => ({ [`${prefix}_API_URL`]: `${url}${apiRoot}`, ...variables }),
    credentials,
  };
}
