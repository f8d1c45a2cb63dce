import { type Direction, exampleOf, normalSchemaOf } from "@switchboard/common/openapi-schema";
import { Ajv, type ValidateFunction } from "ajv";
import formats from "ajv-formats";
import type { Document } from "openapi-backend";

// The fake's reading of a description's bodies, as OpenAPI means them: an answer is checked against
// its status's schema read for answers (writeOnly properties left out, 3.0's nullable, discriminators
// held to their mapping, allOf merged), a request body against its schema read for requests (readOnly
// left out), by @switchboard/common's openapi-schema, the reading the tools use. openapi-backend's own
// checks read the schemas as plain JSON Schema, so they refused correct bodies (an answer without a
// required writeOnly password): what they refuse is read again here. Its mock broke allOf-composed and
// 3.1 schemas.

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `node` with its `$ref` (to a response, a request body, an example) followed, within the document. */
function followed(document: Json, node: unknown): Json | undefined {
  let at = node;
  for (let hops = 0; isJson(at) && typeof at.$ref === "string" && hops < 8; hops++) {
    const ref: string = at.$ref;
    if (!ref.startsWith("#/")) return undefined;
    at = ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (parent, part) =>
          isJson(parent)
            ? parent[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")]
            : undefined,
        document,
      );
  }
  return isJson(at) && typeof at.$ref !== "string" ? at : undefined;
}

/** The JSON media of a response or request body (application/json, else a `+json` type). */
function jsonMedia(document: Json, holder: unknown): Json | undefined {
  const content = followed(document, holder)?.content;
  if (!isJson(content)) return undefined;
  const type =
    "application/json" in content
      ? "application/json"
      : Object.keys(content).find((name) => /^application\/([\w.+-]+\+)?json\b/.test(name));
  return type ? followed(document, content[type]) : undefined;
}

/** The response an answer of `status` is read against: its own, else its class's (2XX), else default. */
function responseFor(responses: Json, status: number): unknown {
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

/** Past this many values an enum is not checked: ajv compiles one in time that grows with its square. */
const CHECKED_ENUM_LIMIT = 1000;

/**
 * `schema` (JSON, possibly with cycles) with its enums of more than CHECKED_ENUM_LIMIT values left out,
 * in place: a check that takes any of them instead of hanging for minutes compiling one.
 */
export function withoutLargeEnums<T>(schema: T, seen = new Set<object>()): T {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return schema;
  seen.add(schema);
  if (isJson(schema) && Array.isArray(schema.enum) && schema.enum.length > CHECKED_ENUM_LIMIT)
    delete schema.enum;
  for (const value of Object.values(schema)) withoutLargeEnums(value, seen);
  return schema;
}

/** Keywords whose values are data, not schemas: what a check needs none of. */
const ANNOTATIONS = new Set(["example", "examples", "default"]);
/** Keywords whose values map names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * A schema without its examples and defaults, for Ajv: Ajv walks every key of a schema for `$id`s,
 * values too, so an example holding an `$id` field (Box's metadata examples) registered the same
 * "schema" twice and the check threw, turning a correct answer into a 500. Examples check nothing.
 */
export function withoutExamples<T>(schema: T, seen = new Set<object>()): T {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return schema;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) withoutExamples(item, seen);
    return schema;
  }
  const object = schema as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (ANNOTATIONS.has(key)) delete object[key];
    else if (SCHEMA_MAPS.has(key) && isJson(value))
      for (const sub of Object.values(value)) withoutExamples(sub, seen);
    else withoutExamples(value, seen);
  }
  return schema;
}

export interface OpenApiAnswers {
  /** The success answer of an operation: the description's own example where valid, else one made from its schema. */
  mock(operationId: string): { status: number; body?: unknown };
  /** What breaks the description in an answer of `status` ([] when nothing, or when it describes no JSON). */
  answerProblems(operationId: string, status: number, body: unknown): string[];
  /** What breaks the description in a request's JSON body; undefined when its body is not JSON. */
  bodyProblems(operationId: string, body: unknown): string[] | undefined;
}

/**
 * `plainCheck`: openapi-backend's check of an answer (the schema as plain JSON Schema), asked first:
 * what it takes is correct, and it shares the dereferenced schemas, where this reading expands them
 * (compiling a Kubernetes-sized answer takes seconds); only what it refuses is read again here.
 */
export function openApiAnswers(
  description: Document,
  plainCheck: (operationId: string, status: number, body: unknown) => boolean = () => false,
): OpenApiAnswers {
  const document = description as unknown as Json;
  const operations = new Map<string, Json>();
  for (const item of Object.values(isJson(document.paths) ? document.paths : {})) {
    const path = followed(document, item);
    for (const method of METHODS) {
      const operation = path?.[method];
      if (isJson(operation) && typeof operation.operationId === "string")
        operations.set(operation.operationId, operation);
    }
  }
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  formats.default(ajv);
  const checks = new Map<string, ValidateFunction | undefined>();

  /** The check of one body (by key), compiled on first use from its schema read for `direction`. */
  const checkOf = (key: string, media: Json | undefined, direction: Direction) => {
    if (!checks.has(key))
      checks.set(
        key,
        media && media.schema !== undefined
          ? ajv.compile(
              withoutExamples(withoutLargeEnums(normalSchemaOf(media.schema, { direction, document }))),
            )
          : undefined,
      );
    return checks.get(key);
  };
  const problems = (check: ValidateFunction | undefined, body: unknown, what: string) =>
    !check || check(body)
      ? []
      : (check.errors ?? []).map((error) => `${error.instancePath || what} ${error.message ?? "is invalid"}`);

  const answers: OpenApiAnswers = {
    mock(operationId) {
      const responses = followed(document, operations.get(operationId)?.responses) ?? {};
      const code =
        ["200", "201", "202", "203"].find((c) => c in responses) ??
        (responses["2XX"] ? "2XX" : responses.default ? "default" : Object.keys(responses)[0]);
      const status = code && /^\d{3}$/.test(code) ? Number(code) : 200;
      const media = code ? jsonMedia(document, responses[code]) : undefined;
      if (!media) return { status };
      const own = [
        ...(media.example !== undefined ? [media.example] : []),
        ...Object.values(isJson(media.examples) ? media.examples : {}).map(
          (example) => followed(document, example)?.value,
        ),
      ].filter((value) => value !== undefined);
      const made = media.schema !== undefined ? exampleOf(media.schema, "response", { document }) : {};
      const body =
        own.find((value) => answers.answerProblems(operationId, status, value).length === 0) ?? made;
      return { status, body };
    },
    answerProblems(operationId, status, body) {
      try {
        if (plainCheck(operationId, status, body)) return [];
      } catch {
        // openapi-backend cannot compile a circular schema (it overflows the stack): read here alone.
      }
      const responses = followed(document, operations.get(operationId)?.responses) ?? {};
      const check = checkOf(
        `answer ${operationId} ${status}`,
        jsonMedia(document, responseFor(responses, status)),
        "response",
      );
      return problems(check, body, "body");
    },
    bodyProblems(operationId, body) {
      const requestBody = followed(document, operations.get(operationId)?.requestBody);
      const media = jsonMedia(document, requestBody);
      if (!media) return undefined;
      if (body === undefined) return requestBody?.required === true ? ["request body is required"] : [];
      return problems(checkOf(`request ${operationId}`, media, "request"), body, "body");
    },
  };
  return answers;
}
