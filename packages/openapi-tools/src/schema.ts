import {
  type Direction,
  exampleOf as exampleOfSchema,
  normalSchemaOf,
} from "@switchboard/common/openapi-schema";
import { portableSchema } from "@switchboard/common/portable-schema";
import { z } from "zod";
import { bodyKindOf, type JsonSchema, type Operation } from "./operations.js";

// The schemas of a description as tool arguments and as examples. The reading of a schema itself
// (allOf merged, discriminators, nullable, readOnly/writeOnly, bounds) is @switchboard/common's
// openapi-schema, shared with the fake made from a description (testing/fake-vendors), which cannot
// depend on this package.

export type { Direction } from "@switchboard/common/openapi-schema";

/**
 * A description's schema as a tool argument's JSON Schema: allOf merged, oneOf/anyOf kept (as anyOf),
 * discriminator honoured, nullable and type arrays, readOnly left out (a request), enums, formats; in
 * the portable subset every provider takes.
 */
export function argumentSchemaOf(schema: JsonSchema, options: { openapi: string }): JsonSchema {
  return portableSchema(normalSchemaOf(schema, { openapi: options.openapi, direction: "request" }));
}

/**
 * The portable schema's `nullable: true` (OpenAPI's word, which zod does not read) as JSON Schema's
 * `type: [type, "null"]`, so a null the API takes passes the tool's check.
 */
function nullableAsType(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsType);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && typeof value === "object" && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, nullableAsType(sub)]));
    else if (key === "items" || key === "anyOf") out[key] = nullableAsType(value);
    else if (key !== "nullable") out[key] = value;
  }
  if ((schema as JsonSchema).nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    // zod reads an enum before the type: null must be one of its values too.
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  return out;
}

/** A JSON Schema as zod, through the portable subset every provider takes; one zod cannot read takes any value. */
export function zodOf(schema: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(nullableAsType(portableSchema(schema)) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.unknown();
  }
}

/** A tool's arguments: the operation's parameters by name, and `body` for its body. */
export function argumentsOf(operation: Operation): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const parameter of operation.parameters) {
    let field = zodOf(parameter.schema);
    if (parameter.description) field = field.describe(parameter.description);
    shape[parameter.name] = parameter.required ? field : field.optional();
  }
  if (operation.body) {
    const body = zodOf(operation.body.schema).describe(bodyAbout(operation.body));
    shape.body = operation.body.required ? body : body.optional();
  }
  return z.object(shape);
}

/** What the model reads about the `body` argument: how it is sent, and how a form's files are given. */
export function bodyAbout(body: NonNullable<Operation["body"]>): string {
  const kind = bodyKindOf(body.mediaType);
  if (kind === "json") return "The request body, as JSON";
  if (kind === "form") return `The request body's fields, sent as a form (${body.mediaType})`;
  return `The request body's fields, sent as ${body.mediaType}: a file field takes the file's content as text (as base64 where its schema says contentEncoding base64)`;
}

/** A valid example value of a schema, for requests ("request") or answers ("response"). */
export function exampleOf(schema: JsonSchema, direction: Direction): unknown {
  return exampleOfSchema(schema, direction);
}

/**
 * Arguments for a call of `operation` that its tool takes: every required parameter and the body
 * (required or not), each a valid example of its schema.
 */
export function exampleArgumentsOf(operation: Operation): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const parameter of operation.parameters)
    if (parameter.required) args[parameter.name] = exampleOf(parameter.schema, "request");
  if (operation.body) args.body = exampleOf(operation.body.schema, "request");
  return args;
}
