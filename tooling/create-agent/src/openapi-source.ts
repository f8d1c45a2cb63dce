import { basename } from "node:path";
import {
  type JsonObject,
  type Operation,
  operationsOf,
  readDescription,
  type SecurityRequirement,
} from "@switchboard/openapi-tools/reading";

/**
 * One security scheme the generated agent sends a credential for: the `auth` entry it passes to
 * openApiTools (`${VAR}` references) and the variables that hold the secret.
 */
export interface CredentialSetting {
  scheme: string;
  /** How the description says it is sent, for the README (e.g. "the `api_key` header"). */
  sent: string;
  /** The `auth` value: `${KEY}`, `${USER}:${PASSWORD}` (basic), `${CLIENT_ID}:${CLIENT_SECRET}` (OAuth2). */
  template: string;
  variables: string[];
}

export interface OpenApiSource {
  /** The description's file name, for messages and the generated README. */
  file: string;
  title: string;
  version: string;
  /** The Swagger version it was converted from, when it was (the package keeps the converted OpenAPI 3). */
  convertedFrom?: string;
  /** Its first server's URL when absolute: where the agent calls when <NAME>_API_URL is unset. */
  serverUrl?: string;
  /** The path of its first server (absolute or not), where a fake serves the described paths ("" for `/`). */
  apiRoot: string;
  /** The operations the agent offers, as openapi-tools reads them at run time. */
  operations: Operation[];
  /** Operations left out, each with why (e.g. a body that is not JSON). */
  skipped: string[];
  /** Each operation's tags, by tool name (the description's own words). */
  tags: Map<string, string[]>;
  /** The security schemes its operations use that the agent sends, each with its variables. */
  credentials: CredentialSetting[];
  /** Schemes its operations use that cannot be sent (OAuth2 flows other than client credentials, …). */
  unsupportedSchemes: string[];
  /** The description as OpenAPI 3 (its $refs kept), written into the package as openapi.json. */
  document: JsonObject;
  /** The same, $refs resolved: what the generated test picks its operations from. */
  resolved: JsonObject;
}

function fail(file: string, message: string): never {
  throw new Error(`--openapi ${file}: ${message}`);
}

/** `bearerAuth` → `BEARER_AUTH`, `api-key` → `API_KEY`: a scheme's name as part of a variable's. */
function upperSnake(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
}

/**
 * The variables of the schemes the operations use: one scheme takes `<NAME>_API_KEY` (a key or
 * token), `<NAME>_API_USER`/`_PASSWORD` (basic), `<NAME>_CLIENT_ID`/`_CLIENT_SECRET` (OAuth2 client
 * credentials) or `<NAME>_ACCESS_TOKEN` (OAuth2's other flows: a token obtained elsewhere); several take the scheme's name after the agent's (`<NAME>_<SCHEME>_…`).
 */
function credentialSettings(
  prefix: string,
  schemes: Record<string, JsonObject>,
  used: string[],
): { credentials: CredentialSetting[]; unsupported: string[] } {
  const all = used.filter((name) => sentAs(schemes[name] ?? {}) !== undefined);
  // An OAuth2 user flow's access token (obtained outside the agent) only where the description has
  // no other scheme the agent can send (Box, Slack, Netlify): else that scheme serves, as before.
  const others = all.filter((name) => !isUserFlow(schemes[name] ?? {}));
  const sendable = others.length > 0 ? others : all;
  const unsupported = used.filter((name) => !sendable.includes(name));
  const one = sendable.length === 1;
  const taken = new Set<string>();
  const variable = (name: string) => {
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name}_${n}`;
    taken.add(unique);
    return unique;
  };
  const credentials = sendable.map((scheme): CredentialSetting => {
    const defined = schemes[scheme] ?? {};
    const sent = sentAs(defined) as string;
    const base = `${prefix}_${one ? "API" : upperSnake(scheme) || "API"}`;
    const type = defined.type;
    const http = String(defined.scheme ?? "").toLowerCase();
    if (type === "http" && http === "basic") {
      const [user, password] = [variable(`${base}_USER`), variable(`${base}_PASSWORD`)];
      return { scheme, sent, template: `\${${user}}:\${${password}}`, variables: [user, password] };
    }
    if (isUserFlow(defined)) {
      const token = variable(`${one ? prefix : base}_ACCESS_TOKEN`);
      return { scheme, sent, template: `\${${token}}`, variables: [token] };
    }
    if (type === "oauth2") {
      const stem = one ? prefix : base;
      const [id, secret] = [variable(`${stem}_CLIENT_ID`), variable(`${stem}_CLIENT_SECRET`)];
      return { scheme, sent, template: `\${${id}}:\${${secret}}`, variables: [id, secret] };
    }
    const key = variable(!one && /_(KEY|TOKEN)$/.test(base) ? base : `${base}_KEY`);
    return { scheme, sent, template: `\${${key}}`, variables: [key] };
  });
  return { credentials, unsupported };
}

/** An OAuth2 scheme without a client-credentials flow: its token is a user's or an app's, got elsewhere. */
function isUserFlow(scheme: JsonObject): boolean {
  return scheme.type === "oauth2" && !(scheme.flows as JsonObject | undefined)?.clientCredentials;
}

/** How a scheme's credential is sent, in words; undefined for one openapi-tools does not send. */
function sentAs(scheme: JsonObject): string | undefined {
  const http = String(scheme.scheme ?? "").toLowerCase();
  if (scheme.type === "apiKey" && typeof scheme.name === "string") {
    const where = { header: "header", query: "query parameter", cookie: "cookie" }[String(scheme.in)];
    // One line without backticks: it is quoted in comments and Markdown.
    const name = scheme.name.replace(/\s+/g, " ").replace(/`/g, "'");
    return where ? `as the \`${name}\` ${where}` : undefined;
  }
  if (scheme.type === "http" && http === "bearer") return "as a bearer token";
  if (scheme.type === "http" && http === "basic") return "as HTTP basic authentication (user and password)";
  const flows = (scheme.flows ?? {}) as JsonObject;
  if (scheme.type === "oauth2" && flows.clientCredentials)
    return "as OAuth2 client credentials (a token fetched from the description's tokenUrl, sent as a bearer token)";
  if (scheme.type === "oauth2" && (flows.authorizationCode || flows.implicit || flows.password))
    return "as a bearer token: an OAuth2 access token obtained outside the agent (its flows are for a user or an app to sign in)";
  return undefined;
}

/** The schemes any operation's requirements name, in the order of the description's schemes. */
function usedSchemes(operations: Operation[], schemes: Record<string, JsonObject>): string[] {
  const named = new Set(
    operations.flatMap(({ security }) =>
      security.flatMap((requirement: SecurityRequirement) => Object.keys(requirement)),
    ),
  );
  return Object.keys(schemes).filter((name) => named.has(name));
}

/**
 * Reads an OpenAPI description (3.0 or 3.1, JSON or YAML; Swagger 2 converted to OpenAPI 3) through
 * @switchboard/openapi-tools, the reading the generated agent's tools get at run time, and what the
 * generator needs from it: the operations, their tags, the credentials its schemes take, its server.
 */
export async function loadOpenApiSource(path: string, prefix: string): Promise<OpenApiSource> {
  const file = basename(path);
  const { document, resolved, convertedFrom } = await readDescription(path, { label: `--openapi ${file}` });
  const info = (resolved.info ?? {}) as { title?: unknown; version?: unknown };
  const schemes = ((resolved.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
  const { operations, skipped } = operationsOf(resolved);
  if (operations.length === 0) fail(file, "describes no operation an agent can call (JSON or no bodies).");
  const server = ((resolved.servers ?? []) as Array<{ url?: unknown }>)[0]?.url;
  const serverText = typeof server === "string" ? server.replace(/\/+$/, "") : "";
  const absolute = /^https?:\/\/[^{}]+$/.test(serverText) ? serverText : undefined;
  const apiRoot = (absolute ? new URL(absolute).pathname : serverText.startsWith("/") ? serverText : "")
    .replace(/\/+$/, "")
    .replace(/[{}]/g, "");
  const { credentials, unsupported } = credentialSettings(prefix, schemes, usedSchemes(operations, schemes));
  const tags = new Map(operations.map((operation) => [operation.tool, operation.tags]));
  return {
    file,
    title: typeof info.title === "string" && info.title.trim() ? info.title.trim() : file,
    version: typeof info.version === "string" ? info.version : "",
    ...(convertedFrom ? { convertedFrom } : {}),
    ...(absolute ? { serverUrl: absolute } : {}),
    apiRoot,
    operations,
    skipped,
    tags,
    credentials,
    unsupportedSchemes: unsupported,
    document,
    resolved,
  };
}

/**
 * The operations `--tags` and `--operations` keep (operationIds or tool names), or an error naming
 * what the description has. Neither given: all of them.
 */
export function chooseOperations(
  source: OpenApiSource,
  choice: { tags?: string[]; operations?: string[] },
): { only?: string[]; operations: Operation[] } {
  const { tags, operations: names } = choice;
  if (!tags && !names) return { operations: source.operations };
  const all = source.operations;
  if (tags) {
    const known = [...new Set([...source.tags.values()].flat())];
    const unknown = tags.filter((tag) => !known.includes(tag));
    if (unknown.length > 0)
      fail(
        source.file,
        `has no tag ${unknown.map((tag) => JSON.stringify(tag)).join(", ")}; its tags are: ${known.join(", ") || "none (give --operations instead)"}.`,
      );
  }
  if (names) {
    const unknown = names.filter(
      (name) => !all.some(({ tool, operationId }) => name === tool || name === operationId),
    );
    if (unknown.length > 0)
      fail(
        source.file,
        `has no operation ${unknown.map((name) => JSON.stringify(name)).join(", ")}; its operations are: ${all.map(({ operationId }) => operationId).join(", ")}.`,
      );
  }
  const chosen = all.filter(
    ({ tool, operationId }) =>
      (tags ?? []).some((tag) => source.tags.get(tool)?.includes(tag)) ||
      (names ?? []).some((name) => name === tool || name === operationId),
  );
  return { only: chosen.map(({ tool }) => tool), operations: chosen };
}
