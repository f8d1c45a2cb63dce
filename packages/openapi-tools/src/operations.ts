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
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** As the description says; OpenAPI's defaults (form for query and cookie, simple for path and header) are applied in request.ts. */
  style?: string;
  explode?: boolean;
}

/** The media types a request body is sent as, in the order one is chosen when a body offers several. */
export type BodyMediaType = "json" | "form" | "multipart";

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
  /** The operation's tags ([] when none). */
  tags: string[];
  /**
   * The request body, as the tool's `body` argument: its media type as the description names it
   * (JSON or `+json`, `application/x-www-form-urlencoded` or `multipart/form-data`; see bodyOf).
   */
  body?: {
    required: boolean;
    mediaType: string;
    schema: JsonSchema;
    /** A form or multipart body's Encoding Object, by field: a field's content type, style, explode. */
    encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>;
  };
  /** The description marks it deprecated. */
  deprecated?: boolean;
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

/** The header, query and cookie parameters that carry an apiKey scheme's credential: the client sends those. */
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

const PARAMETER_PLACES = new Set(["path", "query", "header", "cookie"]);
/** Headers the client sets (the credentials, the body's type and length, the connection), never the model. */
const CLIENT_HEADERS =
  /^(authorization|proxy-authorization|content-type|content-length|accept|cookie|host|connection|transfer-encoding|te|upgrade|keep-alive|expect)$/i;

/**
 * Path, query, header and cookie parameters, the path item's with the operation's laid over; a
 * credential's own parameter and the headers the client sets (CLIENT_HEADERS) are the client's to
 * send, not the model's.
 */
function parametersOf(list: JsonObject[], credentials: Set<string>): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  for (const parameter of list) {
    const where = String(parameter.in);
    if (!PARAMETER_PLACES.has(where)) continue;
    const name = String(parameter.name);
    if (credentials.has(`${where}:${name.toLowerCase()}`)) continue;
    if (where === "header" && CLIENT_HEADERS.test(name)) continue;
    byKey.set(`${where}:${name}`, {
      name,
      in: where as OperationParameter["in"],
      required: where === "path" || parameter.required === true,
      ...(typeof parameter.description === "string" && parameter.description.trim()
        ? { description: parameter.description.trim().replace(/\s+/g, " ") }
        : {}),
      schema: (parameter.schema ?? { type: "string" }) as JsonSchema,
      ...(typeof parameter.style === "string" ? { style: parameter.style } : {}),
      ...(typeof parameter.explode === "boolean" ? { explode: parameter.explode } : {}),
    });
  }
  return [...byKey.values()];
}

/**
 * How a body of a media type is sent, or undefined when it is not one Switchboard sends: JSON (and
 * `+json`), `application/x-www-form-urlencoded`, `multipart/form-data`. Others (XML, a raw file as
 * `application/octet-stream`, `text/plain`) are left out: a model cannot be trusted to write them
 * byte-exact, and their tools would take a string the API may read otherwise.
 */
export function bodyKindOf(mediaType: string): BodyMediaType | undefined {
  const type = (mediaType.split(";")[0] ?? "").trim().toLowerCase();
  if (/^application\/([\w.+-]+\+)?json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type === "multipart/form-data") return "multipart";
  return undefined;
}

const BODY_ORDER: BodyMediaType[] = ["json", "form", "multipart"];

function encodingOf(encoding: Record<string, JsonObject>): NonNullable<Operation["body"]>["encoding"] {
  return Object.fromEntries(
    Object.entries(encoding).map(([field, one]) => [
      field,
      {
        ...(typeof one.contentType === "string" ? { contentType: one.contentType } : {}),
        ...(typeof one.style === "string" ? { style: one.style } : {}),
        ...(typeof one.explode === "boolean" ? { explode: one.explode } : {}),
      },
    ]),
  );
}

/** The body an operation is called with: the first of JSON, form, multipart it offers; else why not. */
function bodyOf(body: JsonObject | undefined): Operation["body"] | { skipped: string } | undefined {
  if (!body) return undefined;
  const content = Object.entries(
    (body.content ?? {}) as Record<string, { schema?: JsonSchema; encoding?: Record<string, JsonObject> }>,
  );
  if (content.length === 0) return undefined;
  for (const kind of BODY_ORDER) {
    const found = content.find(([type]) => bodyKindOf(type) === kind);
    if (!found) continue;
    const [mediaType, { schema, encoding }] = found;
    return {
      required: body.required === true,
      mediaType,
      schema: schema ?? {},
      ...(kind !== "json" && encoding && typeof encoding === "object"
        ? { encoding: encodingOf(encoding) }
        : {}),
    };
  }
  return {
    skipped: `its request body is ${content.map(([type]) => type).join(" or ")}; Switchboard sends JSON, form and multipart bodies`,
  };
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
 * The operations of a resolved description whose bodies Switchboard sends (bodyKindOf), in the description's
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
      if (body && "skipped" in body) {
        skipped.push(`${label} (${operationId}): ${body.skipped}`);
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
        ...(operation.deprecated === true ? { deprecated: true } : {}),
        resources: parameters
          .filter((parameter) => parameter.in === "path")
          .map((parameter) => ({ kind: resourceKindFor(parameter.name), parameter: parameter.name })),
        security: Array.isArray(operation.security)
          ? (operation.security as SecurityRequirement[])
          : globalSecurity,
        tags: Array.isArray(operation.tags)
          ? operation.tags.filter((tag): tag is string => typeof tag === "string" && tag.trim() !== "")
          : [],
      });
    }
  }
  return { operations, skipped };
}
