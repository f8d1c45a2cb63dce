// The reading of an OpenAPI description's schemas (3.0 and 3.1) as plain JSON Schema (see openapi-schema.ts).

export type Schema = Record<string, unknown>;

/** A request's schema leaves out readOnly properties; an answer's, writeOnly ones (OpenAPI 3, Schema Object). */
export type Direction = "request" | "response";

export interface NormalSchemaOptions {
  direction: Direction;
  /** The description's `openapi` field ("3.0.3", "3.1.0"); both readings are taken either way. */
  openapi?: string;
  /** The description with its `$ref`s, where a schema's `$ref`s are looked up (else they stay bounded). */
  document?: Schema;
}

/**
 * Where a resolved schema came from (`#/components/schemas/Cat`): set, not enumerable, by whoever
 * resolves a description's `$ref`s (markReference), so a discriminator's mapping can be read after.
 */
export const SCHEMA_REF: unique symbol = Symbol.for("switchboard.openapi-schema.ref");

/** Marks `schema` as what `ref` names (see SCHEMA_REF); a resolver's onDereference hook. */
export function markReference(ref: string, schema: unknown): void {
  if (isSchema(schema) && Object.isExtensible(schema))
    Object.defineProperty(schema, SCHEMA_REF, { value: ref, configurable: true, enumerable: false });
}

/**
 * Bounds of a walk, so a hostile or huge description gives a bounded schema: levels, and schemas in all
 * (a walk expands schemas a description shares; 5,000 is a Kubernetes object several levels deep).
 */
export const SCHEMA_LIMITS = { depth: 24, nodes: 5_000 } as const;

/** A schema cut short (circular, too deep, too big): any value, described. */
const BOUNDED: unique symbol = Symbol("bounded");

export const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords that are OpenAPI's or tooling's, not a constraint on the value. */
const DROPPED = new Set([
  "discriminator",
  "xml",
  "externalDocs",
  "nullable",
  "$schema",
  "$id",
  "$defs",
  "definitions",
  "$comment",
  "if",
  "then",
  "else",
]);

interface Walk {
  direction: Direction;
  document: Schema | undefined;
  nodes: number;
  /** The schema objects being walked (a cycle of objects) and the `$ref`s being followed. */
  stack: Set<object>;
  refs: string[];
}

function nameOf(ref: string): string {
  return decodeURIComponent(ref.split("/").pop() ?? ref)
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
}

function pointer(document: Schema, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    if (!isSchema(at)) return undefined;
    at = at[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return at;
}

function bounded(source: Schema, why: string): Schema {
  const out: Schema = { description: why };
  if (typeof source.type === "string" || Array.isArray(source.type)) out.type = source.type;
  Object.defineProperty(out, BOUNDED, { value: true, enumerable: false });
  return out;
}

/** Whether a normal schema was cut short (circular, too deep, too big). */
export function isBounded(schema: unknown): boolean {
  return isSchema(schema) && (schema as { [BOUNDED]?: boolean })[BOUNDED] === true;
}

export const typesOf = (schema: Schema): string[] | undefined =>
  typeof schema.type === "string"
    ? [schema.type]
    : Array.isArray(schema.type)
      ? schema.type.filter((t): t is string => typeof t === "string")
      : undefined;

/** `part` laid over `out` (allOf): properties merged by name, required added up, types intersected. */
function mergeInto(out: Schema, part: Schema): void {
  for (const [key, value] of Object.entries(part)) {
    const had = out[key];
    if (key === "properties" && isSchema(had) && isSchema(value)) {
      const properties: Schema = { ...had };
      for (const [name, sub] of Object.entries(value))
        properties[name] = isSchema(properties[name]) && isSchema(sub) ? merged(properties[name], sub) : sub;
      out.properties = properties;
    } else if (key === "required" && Array.isArray(had) && Array.isArray(value))
      out.required = [...new Set([...had, ...value])];
    else if (key === "type" && had !== undefined) {
      const mine = typesOf(out) ?? [];
      const theirs = typesOf(part) ?? [];
      const both = mine.filter((t) => theirs.includes(t) || (t === "number" && theirs.includes("integer")));
      const types =
        both.length > 0
          ? both.map((t) => (t === "number" && !theirs.includes("number") ? "integer" : t))
          : theirs;
      out.type = types.length === 1 ? types[0] : types;
    } else if (key === "enum" && Array.isArray(had) && Array.isArray(value)) {
      const kept = had.filter((v) => value.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      out.enum = kept.length > 0 ? kept : value;
    } else if ((key === "items" || key === "additionalProperties") && isSchema(had) && isSchema(value))
      out[key] = merged(had, value);
    else if ((key === "oneOf" || key === "anyOf") && Array.isArray(had) && Array.isArray(value))
      // Two choices at once: each of the first's branches must also be one of the second's.
      out[key] = had.map((branch) => (isSchema(branch) ? { ...branch, anyOf: value } : branch));
    else out[key] = value;
  }
}

/** `b` laid over a copy of `a`, as allOf merges them. */
export function merged(a: Schema, b: Schema): Schema {
  const out = { ...a };
  mergeInto(out, b);
  return out;
}

/**
 * The discriminator's values that name the schema `ref`: its mapping's keys, else the schema's name;
 * `mapped` when the mapping names it.
 */
function discriminatorValues(discriminator: Schema, ref: string): { values: string[]; mapped: boolean } {
  const mapping = isSchema(discriminator.mapping) ? discriminator.mapping : {};
  const keys = Object.entries(mapping)
    .filter(([, target]) => typeof target === "string" && (target === ref || target === nameOf(ref)))
    .map(([key]) => key);
  return keys.length > 0 ? { values: keys, mapped: true } : { values: [nameOf(ref)], mapped: false };
}

/**
 * `schema` with its discriminator property held to `values` (and required, as OpenAPI says it is); a
 * value the schema already holds it to stays, unless the mapping (the choice being made) names this one.
 */
function constrained(
  schema: Schema,
  property: string,
  { values, mapped }: { values: string[]; mapped: boolean },
): Schema {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const {
    const: heldTo,
    enum: heldAmong,
    ...own
  } = isSchema(properties[property]) ? properties[property] : {};
  if (!mapped && (heldTo !== undefined || Array.isArray(heldAmong))) return schema;
  const required = Array.isArray(schema.required) ? schema.required : [];
  return {
    ...schema,
    type: schema.type ?? "object",
    properties: {
      ...properties,
      [property]: {
        ...own,
        type: "string",
        ...(values.length === 1 ? { const: values[0] } : { enum: values }),
      },
    },
    required: required.includes(property) ? required : [...required, property],
  };
}

function refOf(schema: Schema): string | undefined {
  if (typeof schema.$ref === "string") return schema.$ref;
  const marked = (schema as { [SCHEMA_REF]?: unknown })[SCHEMA_REF];
  return typeof marked === "string" ? marked : undefined;
}

function normal(input: unknown, walk: Walk, depth: number): Schema {
  if (input === false) return { not: {} };
  if (!isSchema(input)) return {};
  if (walk.stack.has(input)) return bounded(input, "(refers to itself: any value)");
  if (depth > SCHEMA_LIMITS.depth) return bounded(input, "(nested too deeply to describe: any value)");
  if (++walk.nodes > SCHEMA_LIMITS.nodes) return bounded(input, "(too large to describe: any value)");
  let schema = input;
  const ref = typeof input.$ref === "string" ? input.$ref : undefined;
  if (ref !== undefined) {
    const target = walk.document ? pointer(walk.document, ref) : undefined;
    if (!isSchema(target) || walk.refs.includes(ref)) {
      const described = isSchema(target) ? target : input;
      return bounded(described, `(a ${nameOf(ref)}, which contains itself: any value)`);
    }
    const { $ref: _, ...siblings } = input;
    schema = Object.keys(siblings).length > 0 ? { allOf: [target, siblings] } : target;
    walk.refs.push(ref);
  }
  walk.stack.add(input);
  try {
    return normalObject(schema, walk, depth, ref ?? refOf(input));
  } finally {
    walk.stack.delete(input);
    if (ref !== undefined) walk.refs.pop();
  }
}

function normalObject(schema: Schema, walk: Walk, depth: number, self: string | undefined): Schema {
  const { allOf, ...own } = schema;
  const out: Schema = {};
  let inherited: Schema | undefined;
  if (Array.isArray(allOf)) {
    for (const part of allOf) {
      const one = normal(part, walk, depth + 1);
      // A part that is the schema itself (a cycle) adds nothing.
      if (isBounded(one)) continue;
      const discriminator = isSchema(part)
        ? walk.document && typeof part.$ref === "string"
          ? pointer(walk.document, part.$ref)
          : part
        : undefined;
      if (isSchema(discriminator) && isSchema(discriminator.discriminator))
        inherited = discriminator.discriminator;
      mergeInto(out, one);
    }
  }
  mergeInto(out, ownKeywords(own, walk, depth));

  // A subtype (Cat: allOf [Pet, …], Pet holding the discriminator) names itself in the property.
  if (inherited && !isSchema(own.discriminator) && typeof inherited.propertyName === "string" && self)
    Object.assign(out, constrained(out, inherited.propertyName, discriminatorValues(inherited, self)));

  if (out.nullable === true || own.nullable === true) {
    const types = typesOf(out);
    if (types && !types.includes("null")) out.type = [...types, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  for (const bound of ["Minimum", "Maximum"] as const) {
    const exclusive = `exclusive${bound}`;
    const plain = bound.toLowerCase();
    if (out[exclusive] === true && typeof out[plain] === "number") {
      out[exclusive] = out[plain];
      delete out[plain];
    } else if (typeof out[exclusive] === "boolean") delete out[exclusive];
  }

  // What this direction does not carry: readOnly properties are the server's, writeOnly ones the client's.
  const hidden = walk.direction === "request" ? "readOnly" : "writeOnly";
  if (isSchema(out.properties)) {
    const gone = Object.entries(out.properties)
      .filter(([, sub]) => isSchema(sub) && sub[hidden] === true)
      .map(([name]) => name);
    if (gone.length > 0) {
      out.properties = Object.fromEntries(
        Object.entries(out.properties).filter(([name]) => !gone.includes(name)),
      );
      if (Array.isArray(out.required))
        out.required = out.required.filter((name) => !gone.includes(name as string));
    }
  }
  return out;
}

/** A schema's own keywords (all but allOf), its sub-schemas normalised, its discriminator applied. */
function ownKeywords(own: Schema, walk: Walk, depth: number): Schema {
  const out: Schema = {};
  const discriminator = isSchema(own.discriminator) ? own.discriminator : undefined;
  for (const [key, value] of Object.entries(own)) {
    if (DROPPED.has(key) || key.startsWith("x-") || key === "$ref") continue;
    if (key === "properties" || key === "patternProperties") {
      if (!isSchema(value)) continue;
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, normal(sub, walk, depth + 1)]),
      );
    } else if (
      key === "items" ||
      key === "additionalProperties" ||
      key === "not" ||
      key === "contains" ||
      key === "propertyNames"
    ) {
      if (isSchema(value)) out[key] = normal(value, walk, depth + 1);
      else if (key === "items" && Array.isArray(value))
        out.prefixItems = value.map((sub) => normal(sub, walk, depth + 1));
      else if (typeof value === "boolean") out[key] = value;
    } else if (key === "prefixItems" && Array.isArray(value))
      out[key] = value.map((sub) => normal(sub, walk, depth + 1));
    else if ((key === "oneOf" || key === "anyOf") && Array.isArray(value)) {
      out[key] = value.map((branch) => {
        const one = normal(branch, walk, depth + 1);
        const ref = isSchema(branch) ? refOf(branch) : undefined;
        // A choice with a discriminator: each branch holds the property to the value that names it.
        return discriminator && typeof discriminator.propertyName === "string" && ref
          ? constrained(one, discriminator.propertyName, discriminatorValues(discriminator, ref))
          : one;
      });
    } else out[key] = value;
  }
  if (own.nullable === true) out.nullable = true;
  return out;
}

/**
 * A description's schema as plain JSON Schema for one direction: `$ref`s followed (given the document;
 * circular ones bounded), allOf merged (properties, required, nested allOf), oneOf/anyOf kept with a
 * discriminator's property held to each branch's value, 3.0's nullable and boolean exclusive bounds as
 * 3.1 writes them, readOnly properties left out of requests and writeOnly ones out of answers, OpenAPI's
 * own keywords (discriminator, xml, x-…) dropped. Bounded (SCHEMA_LIMITS): a cycle, too deep a nesting
 * or too many schemas become "any value", described.
 */
export function normalSchemaOf(schema: unknown, options: NormalSchemaOptions): Schema {
  return normal(
    schema,
    {
      direction: options.direction,
      document: options.document,
      nodes: 0,
      stack: new Set(),
      refs: [],
    },
    0,
  );
}
