import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { parse as parseYaml } from "yaml";

/** A JSON Schema as a description gives it (dereferenced). */
export type JsonSchema = Record<string, unknown>;

export interface OperationParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** One operation of the description, as the generated agent calls it. */
export interface OpenApiOperation {
  operationId: string;
  /** The tool's name: the operationId in snake_case. */
  tool: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  /** Summary and description, one line. */
  about: string;
  /** GET: a read tool; the others change something and ask first. */
  read: boolean;
  parameters: OperationParameter[];
  /** The JSON request body, as the tool's `body` argument. */
  body?: { required: boolean; schema: JsonSchema };
  /** Path parameters and the resource kind each names for policies: petId → pet. */
  resources: Array<{ kind: string; parameter: string }>;
}

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

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** getPetById → get_pet_by_id; "list-items" → list_items; at most 64 characters (tool-name rules). */
export function toolNameFor(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase()
    .slice(0, 64);
}

/** The resource kind a path parameter names: petId → pet, order_id → order, username → username. */
export function resourceKindFor(parameter: string): string {
  const kind = parameter.replace(/[_-]?(id|ID|Id)$/, "");
  return toolNameFor(kind || parameter);
}

function fail(file: string, message: string): never {
  throw new Error(`--openapi ${file}: ${message}`);
}

/**
 * Reads an OpenAPI 3 description (JSON or YAML) and the operations an agent would offer: its $refs
 * resolved (json-schema-ref-parser; references to other files are resolved beside it), each
 * operation with its parameters and JSON body, GET as reads and the rest as changes.
 */
export async function loadOpenApiSource(path: string): Promise<OpenApiSource> {
  const file = basename(path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return fail(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  let document: Record<string, unknown>;
  try {
    document = (/^\s*\{/.test(text) ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
  } catch (error) {
    return fail(
      file,
      `is neither JSON nor YAML (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (typeof document !== "object" || document === null) return fail(file, "is not an OpenAPI description.");
  if (typeof document.swagger === "string")
    fail(
      file,
      `is Swagger ${document.swagger}; convert it to OpenAPI 3 first (e.g. npx swagger2openapi ${file} -o openapi.yaml).`,
    );
  if (typeof document.openapi !== "string" || !document.openapi.startsWith("3."))
    fail(file, "has no `openapi: 3.x` field: give an OpenAPI 3.0 or 3.1 description.");

  // Resolved on a copy, circular references kept as $ref (the tool accepts any value there).
  const resolved = (await $RefParser.dereference(path, structuredClone(document), {
    dereference: { circular: "ignore" },
  })) as Record<string, unknown>;
  const info = (resolved.info ?? {}) as { title?: string; version?: string };
  const schemes = ((resolved.components as { securitySchemes?: Record<string, Record<string, string>> })
    ?.securitySchemes ?? {}) as Record<string, Record<string, string>>;
  const auth = authOf(schemes);

  const operations: OpenApiOperation[] = [];
  const skipped: string[] = [];
  const used = new Set<string>();
  for (const [path, item] of Object.entries(
    (resolved.paths ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    const shared = (item.parameters ?? []) as Array<Record<string, unknown>>;
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const operationId = String(operation.operationId ?? toolNameFor(`${method}_${path}`));
      let tool = toolNameFor(operationId) || toolNameFor(`${method}_${path}`);
      for (let n = 2; used.has(tool); n++) tool = `${toolNameFor(operationId).slice(0, 60)}_${n}`;
      const body = bodyOf(operation.requestBody as Record<string, unknown> | undefined);
      if (body === "not json") {
        skipped.push(`${label} (${operationId}): its request body is not JSON`);
        continue;
      }
      used.add(tool);
      const parameters = parametersOf(
        [...shared, ...((operation.parameters ?? []) as Array<Record<string, unknown>>)],
        auth,
      );
      const about = [operation.summary, operation.description]
        .filter((part): part is string => typeof part === "string" && part.trim() !== "")
        .map((part) => part.trim().replace(/\s+/g, " ").replace(/\.?$/, "."))
        .filter((part, index, all) => all.indexOf(part) === index)
        .join(" ");
      operations.push({
        operationId,
        tool,
        method: method.toUpperCase() as OpenApiOperation["method"],
        path,
        about: about || `${label}.`,
        read: method === "get",
        parameters,
        ...(body ? { body } : {}),
        resources: parameters
          .filter((parameter) => parameter.in === "path")
          .map((parameter) => ({ kind: resourceKindFor(parameter.name), parameter: parameter.name })),
      });
    }
  }
  if (operations.length === 0)
    fail(file, "describes no operation this generator can call (JSON bodies only).");
  const server = ((resolved.servers ?? []) as Array<{ url?: string }>)[0]?.url;
  return {
    file,
    title: info.title ?? file,
    version: info.version ?? "",
    ...(server && /^https?:\/\//.test(server) ? { serverUrl: server.replace(/\/+$/, "") } : {}),
    ...(auth ? { auth } : {}),
    operations,
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

/** Path, query and header parameters; the API key's own parameter is the client's to send, not the model's. */
function parametersOf(list: Array<Record<string, unknown>>, auth: ApiAuth | undefined): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const parameter of list) {
    const where = parameter.in;
    if (where !== "path" && where !== "query" && where !== "header") continue;
    const name = String(parameter.name);
    if (auth && auth.in !== "bearer" && auth.in === where && auth.name.toLowerCase() === name.toLowerCase())
      continue;
    if (where === "header" && /^(authorization|content-type|accept)$/i.test(name)) continue;
    byKey.set(`${where}:${name}`, {
      name,
      in: where,
      required: where === "path" || parameter.required === true,
      ...(typeof parameter.description === "string" && parameter.description.trim()
        ? { description: parameter.description.trim().replace(/\s+/g, " ") }
        : {}),
      schema: (parameter.schema ?? { type: "string" }) as JsonSchema,
    });
  }
  return [...byKey.values()];
}

function bodyOf(
  body: Record<string, unknown> | undefined,
): { required: boolean; schema: JsonSchema } | "not json" | undefined {
  if (!body) return undefined;
  const content = (body.content ?? {}) as Record<string, { schema?: JsonSchema }>;
  const json = Object.entries(content).find(([type]) => /^application\/([\w.+-]+\+)?json\b/.test(type));
  if (!json) return Object.keys(content).length > 0 ? "not json" : undefined;
  return { required: body.required === true, schema: json[1].schema ?? {} };
}
