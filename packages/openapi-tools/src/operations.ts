import { PORTABLE_TOOL_NAME } from "@switchboard/common";
import { normalSchemaOf } from "@switchboard/common/openapi-schema";
import type { JsonObject } from "./description.js";

/** A JSON Schema as a description gives it (resolved). */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Every method an operation may be called with, in the order tools are listed. */
export const HTTP_METHODS: readonly HttpMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

export interface OperationParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** One security requirement: scheme names (all needed together) → scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** One operation of a description, as a tool calls it. */
export interface Operation {
  operationId: string;
  /** The tool's name: the operationId in snake_case, as every LLM provider takes it (see toolNameFor). */
  tool: string;
  method: HttpMethod;
  path: string;
  /** Summary and description, one line. */
  about: string;
  /** GET and HEAD read; the others change something and ask first. */
  read: boolean;
  parameters: OperationParameter[];
  /** The JSON request body, as the tool's `body` argument. */
  body?: { required: boolean; schema: JsonSchema };
  /** Path parameters and the resource kind each names for policies: petId → pet. */
  resources: Array<{ kind: string; parameter: string }>;
  /** The requirements that apply (the operation's own, else the description's); [] when none. */
  security: SecurityRequirement[];
}

/**
 * getPetById → get_pet_by_id; "list-items" → list_items; "2fa-reset" → _2fa_reset: snake_case, a
 * letter or `_` first, at most 64 characters (PORTABLE_TOOL_NAME: what every provider takes).
 */
export function toolNameFor(operationId: string): string {
  const snake = operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  const name = (/^[0-9]/.test(snake) ? `_${snake}` : snake).slice(0, 64);
  return PORTABLE_TOOL_NAME.test(name) ? name : "";
}

/** The resource kind a path parameter names: petId → pet, order_id → order, username → username. */
export function resourceKindFor(parameter: string): string {
  const kind = parameter.replace(/[_-]?(id|ID|Id)$/, "");
  return toolNameFor(kind || parameter);
}

/** The header and query parameters that carry an apiKey scheme's credential: the client sends those. */
function credentialParameters(resolved: JsonObject): Set<string> {
  const schemes = ((resolved.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
  return new Set(
    Object.values(schemes)
      .filter((scheme) => scheme.type === "apiKey" && typeof scheme.name === "string")
      .map((scheme) => `${String(scheme.in)}:${String(scheme.name).toLowerCase()}`),
  );
}

/**
 * Path, query and header parameters, the path item's with the operation's laid over; a credential's
 * own parameter, Authorization, Content-Type and Accept are the client's to send, not the model's.
 */
function parametersOf(list: JsonObject[], credentials: Set<string>): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const parameter of list) {
    const where = parameter.in;
    if (where !== "path" && where !== "query" && where !== "header") continue;
    const name = String(parameter.name);
    if (credentials.has(`${where}:${name.toLowerCase()}`)) continue;
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

function bodyOf(body: JsonObject | undefined): Operation["body"] | "not json" | undefined {
  if (!body) return undefined;
  const content = (body.content ?? {}) as Record<string, { schema?: JsonSchema }>;
  const json = Object.entries(content).find(([type]) => /^application\/([\w.+-]+\+)?json\b/.test(type));
  if (!json) return Object.keys(content).length > 0 ? "not json" : undefined;
  return { required: body.required === true, schema: json[1].schema ?? {} };
}

function aboutOf(operation: JsonObject, label: string): string {
  const about = [operation.summary, operation.description]
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .map((part) => part.trim().replace(/\s+/g, " ").replace(/\.?$/, "."))
    .filter((part, index, all) => all.indexOf(part) === index)
    .join(" ");
  return about || `${label}.`;
}

/**
 * The operations of a resolved description that take JSON (or no) bodies, in the description's
 * order, with those left out and why. `methods` narrows which methods are taken (the generator's
 * templates call no HEAD).
 */
export function operationsOf(
  resolved: JsonObject,
  options: { methods?: readonly HttpMethod[] } = {},
): { operations: Operation[]; skipped: string[] } {
  const methods = options.methods ?? HTTP_METHODS;
  // Arguments as the request carries them (see schema.ts): allOf merged, readOnly left out, the
  // circular $refs the resolver left followed once, bounded.
  const openapi = typeof resolved.openapi === "string" ? resolved.openapi : "3.0.0";
  const requestSchema = (schema: JsonSchema) =>
    normalSchemaOf(schema, { openapi, direction: "request", document: resolved });
  const credentials = credentialParameters(resolved);
  const globalSecurity = Array.isArray(resolved.security) ? (resolved.security as SecurityRequirement[]) : [];
  const operations: Operation[] = [];
  const skipped: string[] = [];
  const used = new Set<string>();
  for (const [path, item] of Object.entries((resolved.paths ?? {}) as Record<string, JsonObject>)) {
    const shared = (item.parameters ?? []) as JsonObject[];
    for (const method of methods) {
      const operation = item[method.toLowerCase()] as JsonObject | undefined;
      if (!operation) continue;
      const label = `${method} ${path}`;
      const operationId = String(operation.operationId ?? toolNameFor(`${method}_${path}`));
      const base = toolNameFor(operationId) || toolNameFor(`${method}_${path}`) || "operation";
      let tool = base;
      for (let n = 2; used.has(tool); n++) tool = `${base.slice(0, 60)}_${n}`;
      const body = bodyOf(operation.requestBody as JsonObject | undefined);
      if (body === "not json") {
        skipped.push(`${label} (${operationId}): its request body is not JSON`);
        continue;
      }
      used.add(tool);
      const parameters = parametersOf(
        [...shared, ...((operation.parameters ?? []) as JsonObject[])],
        credentials,
      ).map((parameter) => ({ ...parameter, schema: requestSchema(parameter.schema) }));
      operations.push({
        operationId,
        tool,
        method,
        path,
        about: aboutOf(operation, label),
        read: method === "GET" || method === "HEAD",
        parameters,
        ...(body ? { body: { ...body, schema: requestSchema(body.schema) } } : {}),
        resources: parameters
          .filter((parameter) => parameter.in === "path")
          .map((parameter) => ({ kind: resourceKindFor(parameter.name), parameter: parameter.name })),
        security: Array.isArray(operation.security)
          ? (operation.security as SecurityRequirement[])
          : globalSecurity,
      });
    }
  }
  return { operations, skipped };
}
