import type { JsonRequest } from "@switchboard/agent-runtime";
import { z } from "zod";

/** A JSON Schema as the OpenAPI description gives it. */
export type JsonSchema = Record<string, unknown>;

/** How the API takes its key: a header or query parameter (apiKey scheme), or a bearer token. */
export type ApiAuth = { in: "header" | "query"; name: string } | { in: "bearer" };

/** One operation of the description, as src/operations.ts lists them. */
export interface Operation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  /** Summary and description, for confirmation questions. */
  about: string;
  parameters: Array<{
    name: string;
    in: "path" | "query" | "header";
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }>;
  /** A JSON request body, passed as the tool's `body` argument. */
  body?: { required: boolean; schema: JsonSchema };
}

type Parameter = Operation["parameters"][number];

/** One operation of the description: its method and path, what it does, its parameters and JSON body. */
export function operation(
  method: Operation["method"],
  path: string,
  about: string,
  parameters: Parameter[] = [],
  body?: Operation["body"],
): Operation {
  return { method, path, about, parameters, ...(body ? { body } : {}) };
}

/** A path, query or header parameter: path parameters are required, the others only when said. */
export function parameter(
  where: Parameter["in"],
  name: string,
  schema: JsonSchema,
  description?: string,
  required = where === "path",
): Parameter {
  return { name, in: where, required, ...(description ? { description } : {}), schema };
}

/** A JSON request body (the tool's `body` argument): optional unless said. */
export function jsonBody(schema: JsonSchema, required = false): NonNullable<Operation["body"]> {
  return { required, schema };
}

/** A parameter's schema as zod (zod's own JSON Schema reading); one zod cannot read takes any value. */
function zodOf(schema: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.unknown();
  }
}

/** A tool's arguments: the operation's parameters by name, and `body` for its JSON body. */
export function argumentsOf(operation: Operation): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const parameter of operation.parameters) {
    let field = zodOf(parameter.schema);
    if (parameter.description) field = field.describe(parameter.description);
    shape[parameter.name] = parameter.required ? field : field.optional();
  }
  if (operation.body) {
    const body = zodOf(operation.body.schema).describe("The request body, as JSON");
    shape.body = operation.body.required ? body : body.optional();
  }
  return z.object(shape);
}

/** The operation's path with the call's path parameters filled in. */
export function pathOf(operation: Operation, args: Record<string, unknown>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(String(args[name])),
  );
}

/** The question a change asks: what the operation does, and the call (every argument, the body too, follows whole). */
export function confirmationOf(operation: Operation, args: Record<string, unknown>): string {
  return `${operation.about} (${operation.method} ${pathOf(operation, args)})`;
}

/** The HTTP request of one call: path and query parameters in the URL, headers, the JSON body, the key. */
export function requestOf(
  operation: Operation,
  args: Record<string, unknown>,
  baseUrl: string,
  auth: ApiAuth | null,
  apiKey: string | undefined,
): JsonRequest {
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = args[parameter.name];
    if (value === undefined || parameter.in === "path") continue;
    const values = Array.isArray(value)
      ? value.map(String)
      : [typeof value === "object" ? JSON.stringify(value) : String(value)];
    if (parameter.in === "query") for (const one of values) query.append(parameter.name, one);
    else headers[parameter.name] = values.join(",");
  }
  if (auth && apiKey) {
    if (auth.in === "bearer") headers.authorization = `Bearer ${apiKey}`;
    else if (auth.in === "header") headers[auth.name] = apiKey;
    else query.set(auth.name, apiKey);
  }
  const search = query.toString();
  return {
    method: operation.method,
    url: `${baseUrl}${pathOf(operation, args)}${search ? `?${search}` : ""}`,
    headers,
    ...(args.body === undefined ? {} : { body: args.body }),
  };
}

const MAX_ANSWER = 6000;

/** The API's answer as the model reads it: its JSON, cut at a length a turn can hold. */
export function answerText(answer: unknown): string {
  if (answer === undefined) return "Done: the API answered without a body.";
  const text = JSON.stringify(answer, null, 1);
  return text.length > MAX_ANSWER
    ? `${text.slice(0, MAX_ANSWER)}\n… (cut: ${text.length} characters in all)`
    : text;
}
