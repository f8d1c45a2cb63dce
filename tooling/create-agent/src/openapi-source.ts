import { basename } from "node:path";
import {
  type HttpMethod,
  type JsonSchema,
  type Operation,
  operationsOf,
  readDescription,
} from "@switchboard/openapi-tools/reading";

// The description is read as configured agents read it at run time (@switchboard/openapi-tools):
// one reading of a description, here turned into code.
export {
  type JsonSchema,
  type OperationParameter,
  resourceKindFor,
  toolNameFor,
} from "@switchboard/openapi-tools/reading";

/** One operation of the description, as the generated agent calls it (no HEAD: its client sends none). */
export type OpenApiOperation = Operation & { method: Exclude<HttpMethod, "HEAD"> };

/** How the API takes its key: a header or query parameter (apiKey scheme), or a bearer token. */
export type ApiAuth = { in: "header" | "query"; name: string } | { in: "bearer" };

export interface OpenApiSource {
  /** The description's file name, for messages and the generated README. */
  file: string;
  title: string;
  version: string;
  /** Its first server's URL when absolute: the default of <NAME>_API_URL. */
  serverUrl?: string;
  auth?: ApiAuth;
  operations: OpenApiOperation[];
  /** Operations left out, each with why (e.g. a body that is not JSON). */
  skipped: string[];
  /** The description as given (its $refs kept), written into the package as openapi.json. */
  document: Record<string, unknown>;
  /** The names of its component schemas, by the (dereferenced) schema objects the operations share. */
  schemaNames: Map<JsonSchema, string>;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function fail(file: string, message: string): never {
  throw new Error(`--openapi ${file}: ${message}`);
}

/**
 * Reads an OpenAPI 3 description (JSON or YAML) and the operations an agent would offer: its $refs
 * resolved (references to other files are resolved beside it), each operation with its parameters
 * and JSON body, GET as reads and the rest as changes.
 */
export async function loadOpenApiSource(path: string): Promise<OpenApiSource> {
  const file = basename(path);
  const { document, resolved, convertedFrom } = await readDescription(path, { label: `--openapi ${file}` });
  // The generated package keeps the description as given (openapi.json): a converted one would not be.
  if (convertedFrom)
    fail(
      file,
      `is Swagger ${convertedFrom}; convert it to OpenAPI 3 first (e.g. npx swagger2openapi ${file} -o openapi.yaml).`,
    );
  const info = (resolved.info ?? {}) as { title?: string; version?: string };
  const schemes = ((resolved.components as { securitySchemes?: Record<string, Record<string, string>> })
    ?.securitySchemes ?? {}) as Record<string, Record<string, string>>;
  const auth = authOf(schemes);
  const { operations, skipped } = operationsOf(resolved, { methods: METHODS });
  if (operations.length === 0)
    fail(file, "describes no operation this generator can call (JSON bodies only).");
  const server = ((resolved.servers ?? []) as Array<{ url?: string }>)[0]?.url;
  return {
    file,
    title: info.title ?? file,
    version: info.version ?? "",
    ...(server && /^https?:\/\//.test(server) ? { serverUrl: server.replace(/\/+$/, "") } : {}),
    ...(auth ? { auth } : {}),
    operations: operations as OpenApiOperation[],
    skipped,
    document,
    schemaNames: new Map(
      Object.entries(
        ((resolved.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ??
          {}) as Record<string, JsonSchema>,
      ).map(([name, schema]) => [schema, name]),
    ),
  };
}

/** The first apiKey scheme (header or query), else an HTTP bearer scheme; OAuth flows are not generated. */
function authOf(schemes: Record<string, Record<string, string>>): ApiAuth | undefined {
  const all = Object.values(schemes);
  const key = all.find(
    (scheme) => scheme.type === "apiKey" && (scheme.in === "header" || scheme.in === "query"),
  );
  if (key?.name) return { in: key.in as "header" | "query", name: key.name };
  if (all.some((scheme) => scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer"))
    return { in: "bearer" };
  return undefined;
}
