import randexp from "randexp";
import { z } from "zod";
import {
  type Direction,
  isBounded,
  isSchema,
  merged,
  type NormalSchemaOptions,
  normalSchemaOf,
  type Schema,
  typesOf,
} from "./openapi-normal.js";

// Valid examples of an OpenAPI description's schemas, made from their normal form (openapi-normal.ts).

const checks = new WeakMap<Schema, z.ZodType | null>();

/** Whether `value` is valid against a normal schema (zod's reading of JSON Schema); unreadable: not known, so no. */
function valid(schema: Schema, value: unknown): boolean {
  let check = checks.get(schema);
  if (check === undefined) {
    try {
      check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      check = null;
    }
    checks.set(schema, check);
  }
  return check?.safeParse(value).success === true;
}

const FORMATS: Record<string, string> = {
  "date-time": "2024-01-15T09:30:00Z",
  date: "2024-01-15",
  time: "09:30:00Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/",
  url: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "uri-template": "https://example.com/{id}",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  byte: "ZXhhbXBsZQ==",
  base64: "ZXhhbXBsZQ==",
  binary: "example",
  password: "example-password",
  int32: "1",
  int64: "1",
  "json-pointer": "/example",
  regex: "^example$",
};

function stringOf(schema: Schema): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fit = (text: string) =>
    text.padEnd(Math.min(Math.max(min, text.length), 1000), "x").slice(0, Math.max(max, 0));
  const formatted = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  if (typeof schema.pattern !== "string") return fit(formatted ?? "example");
  // ECMA-262 with the unicode flag is what JSON Schema names; a pattern only the older syntax reads is taken too.
  let pattern: RegExp | undefined;
  for (const flags of ["u", ""])
    try {
      pattern ??= new RegExp(schema.pattern, flags);
    } catch {}
  if (!pattern) return fit(formatted ?? "example");
  const tries = [
    formatted,
    "example",
    "Example",
    "EXAMPLE",
    "example-1",
    "a",
    "A",
    "1",
    "example_1",
    "a1",
    "v1.0.0",
    "1.0.0",
    "abc",
    "ABC",
    "123",
    "0",
    "12345678",
    "main",
    "owner/repo",
    "example.com",
    "ab-cd",
    "AB-1",
    "user@example.com",
    "",
  ];
  for (const text of tries)
    if (text !== undefined && pattern.test(fit(text)) && fit(text).length >= min) return fit(text);
  const made = matching(pattern);
  if (made !== undefined && pattern.test(made) && made.length >= min && made.length <= max) return made;
  return fit(formatted ?? "example");
}

/**
 * A string the pattern matches, made by randexp choosing the first of every choice and the fewest of
 * every repetition (so the same pattern always gives the same string: `^AC[0-9a-fA-F]{32}$` gives
 * "AC" and 32 zeros); undefined when randexp cannot read the pattern.
 */
// randexp's module is the class itself (module.exports), where its types declare a default export.
const RandExp = randexp as unknown as typeof randexp.default;

function matching(pattern: RegExp): string | undefined {
  try {
    const generator = new RandExp(pattern);
    generator.max = 1;
    generator.randInt = (low: number) => low;
    return generator.gen();
  } catch {
    return undefined;
  }
}

function numberOf(schema: Schema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let low = typeof schema.minimum === "number" ? schema.minimum : Number.NEGATIVE_INFINITY;
  if (typeof schema.exclusiveMinimum === "number") low = Math.max(low, schema.exclusiveMinimum + step);
  let high = typeof schema.maximum === "number" ? schema.maximum : Number.POSITIVE_INFINITY;
  if (typeof schema.exclusiveMaximum === "number") high = Math.min(high, schema.exclusiveMaximum - step);
  let value = Math.min(Math.max(1, low), high);
  if (integer) value = Math.ceil(value);
  const multiple =
    typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (multiple) value = Math.ceil(value / multiple) * multiple;
  return Number.isFinite(value) ? value : 1;
}

function typeOf(schema: Schema): string | undefined {
  const types = typesOf(schema)?.filter((t) => t !== "null");
  if (types && types.length > 0) return types[0];
  if (types?.length === 0 && schema.type !== undefined) return "null";
  if (isSchema(schema.properties) || Array.isArray(schema.required) || isSchema(schema.additionalProperties))
    return "object";
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return "array";
  if (
    typeof schema.pattern === "string" ||
    typeof schema.format === "string" ||
    typeof schema.minLength === "number"
  )
    return "string";
  if (typeof schema.minimum === "number" || typeof schema.maximum === "number") return "number";
  return undefined;
}

const SAMPLE_DEPTH = 40;

function sample(schema: Schema, direction: Direction, depth: number): unknown {
  const own = [
    ...(schema.example !== undefined ? [schema.example] : []),
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    ...(schema.default !== undefined ? [schema.default] : []),
  ];
  for (const candidate of own) if (valid(schema, candidate)) return candidate;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if (depth > SAMPLE_DEPTH) return null;

  const choice = Array.isArray(schema.oneOf)
    ? schema.oneOf
    : Array.isArray(schema.anyOf)
      ? schema.anyOf
      : undefined;
  if (choice && choice.length > 0) {
    const { oneOf: _one, anyOf: _any, example: _e, examples: _es, default: _d, ...base } = schema;
    let first: unknown;
    for (const [index, branch] of choice.entries()) {
      if (!isSchema(branch)) continue;
      const value = sample(merged(base, branch), direction, depth + 1);
      if (index === 0) first = value;
      if (valid(schema, value)) return value;
    }
    return first;
  }

  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, sub] of Object.entries(properties)) {
        if (!isSchema(sub)) continue;
        // A request carries what it must; an answer shows every field it can describe.
        if (required.has(name) || (direction === "response" && !isBounded(sub)))
          out[name] = sample(sub, direction, depth + 1);
      }
      for (const name of required)
        if (typeof name === "string" && !(name in out))
          out[name] = isSchema(schema.additionalProperties)
            ? sample(schema.additionalProperties, direction, depth + 1)
            : "example";
      return out;
    }
    case "array": {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.filter(isSchema) : [];
      const items = isSchema(schema.items) ? schema.items : {};
      const wanted = typeof schema.minItems === "number" ? schema.minItems : 0;
      const count = Math.min(
        Math.max(wanted, prefix.length, direction === "response" && schema.maxItems !== 0 ? 1 : 0),
        100,
      );
      const out = Array.from({ length: count }, (_, i) => sample(prefix[i] ?? items, direction, depth + 1));
      // Unique items: numbers and strings made distinct.
      if (schema.uniqueItems === true)
        return out.map((value, i) =>
          i === 0
            ? value
            : typeof value === "number"
              ? value + i
              : typeof value === "string"
                ? `${value}${i}`
                : value,
        );
      return out;
    }
    case "string":
      return stringOf(schema);
    case "integer":
      return numberOf(schema, true);
    case "number":
      return numberOf(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return isBounded(schema) ? null : "example";
  }
}

/**
 * A valid example of a description's schema, for a request or an answer: the schema's own `example`,
 * `examples` or `default` where valid, else one made from it (formats, patterns, bounds, the first enum
 * value, the first branch of a choice that is valid, required properties for a request and every
 * describable one for an answer). Bounded as normalSchemaOf is.
 */
export function exampleOf(
  schema: unknown,
  direction: Direction,
  options: Omit<NormalSchemaOptions, "direction"> = {},
): unknown {
  return sample(normalSchemaOf(schema, { ...options, direction }), direction, 0);
}
