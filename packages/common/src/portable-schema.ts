import { createHash } from "node:crypto";
import { PORTABLE_FORMATS, PORTABLE_SCHEMA_KEYWORDS, PORTABLE_TOOL_NAME } from "./tool-rules.js";

// Tools that come from elsewhere (an MCP server's, an OpenAPI description's operations) are made into
// what every provider takes here, by the rules table beside it (tool-rules.ts). Its own entry point,
// not the index: node:crypto must not reach the browser bundles that import the index.

/**
 * `name` made portable (see PORTABLE_TOOL_NAME) and unlike every name in `taken`: other characters
 * become `_`, a leading digit or dash gets `_` before it, and a name too long or already taken is cut
 * and ends with a hash of the original, so the same tool keeps the same name across restarts.
 */
export function portableToolName(name: string, taken: ReadonlySet<string>): string {
  if (PORTABLE_TOOL_NAME.test(name) && !taken.has(name)) return name;
  let base = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!/^[a-zA-Z_]/.test(base)) base = `_${base}`;
  if (base.length <= 64 && !taken.has(base)) return base;
  const hash = createHash("sha256").update(name).digest("hex");
  for (let length = 8; length <= 16; length += 4) {
    const candidate = `${base.slice(0, 63 - length)}_${hash.slice(0, length)}`;
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error(`No portable tool name left for ${name}`);
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function resolveRef(ref: string, root: Schema): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1] as string] : undefined;
  const target = isSchema(defs) ? defs[decodeURIComponent(match?.[2] ?? "")] : undefined;
  return isSchema(target) ? target : undefined;
}

/** One part of an `allOf` laid over what the earlier parts gave: properties and required add up. */
function mergeInto(out: Schema, part: Schema): void {
  for (const [key, value] of Object.entries(part)) {
    if (key === "properties" && isSchema(out.properties) && isSchema(value))
      out.properties = { ...out.properties, ...value };
    else if (key === "required" && Array.isArray(out.required) && Array.isArray(value))
      out.required = [...new Set([...out.required, ...value])];
    else out[key] = value;
  }
}

/** Past this many values an enum is described (its count and a few), not listed. */
export const PORTABLE_ENUM_LIMIT = 100;

function portable(schema: Schema, root: Schema, depth: number): Schema {
  // Past this depth any value is taken (the type kept where it is one), not a guess that refuses some.
  if (depth > 8)
    return {
      ...(typeof schema.type === "string" ? { type: schema.type } : {}),
      description: "(nested too deeply to describe)",
    };
  let source = schema;
  if (typeof source.$ref === "string") {
    const { $ref, ...rest } = source;
    source = { ...(resolveRef($ref, root) ?? { type: "object" }), ...rest };
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "const") out.enum = [value];
    else if (key === "oneOf") out.anyOf = value;
    else if (key === "allOf" && Array.isArray(value)) {
      for (const part of value.filter(isSchema)) mergeInto(out, portable(part, root, depth + 1));
    } else if (PORTABLE_SCHEMA_KEYWORDS.has(key)) out[key] = value;
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== "null");
    if (types.length < out.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      delete out.type;
      out.anyOf = types.map((type) => ({ type }));
    }
  }
  if (typeof out.format === "string" && !(PORTABLE_FORMATS[String(out.type)] ?? []).includes(out.format))
    delete out.format;
  if (Array.isArray(out.enum)) {
    // A null among the values is the schema's nullable (a "null" string would be a value the API refuses).
    const values = out.enum.filter((v) => v !== null);
    if (values.length < out.enum.length) out.nullable = true;
    delete out.enum;
    // Gemini takes enums of strings only: another type's values move into the description, and so do
    // too many values (each costs tokens in every turn the tool is offered).
    const strings =
      (out.type === undefined || out.type === "string") && values.every((v) => typeof v === "string");
    if (strings) out.type = "string";
    if (strings && values.length <= PORTABLE_ENUM_LIMIT) out.enum = values;
    else {
      const shown =
        values.length > PORTABLE_ENUM_LIMIT
          ? `${values.length} values, such as ${values
              .slice(0, 5)
              .map((v) => JSON.stringify(v))
              .join(", ")}`
          : values.map((v) => JSON.stringify(v)).join(", ");
      out.description = `${out.description ? `${out.description} ` : ""}(one of ${shown})`;
    }
  }
  if (isSchema(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([name, sub]) => [
        name,
        portable(isSchema(sub) ? sub : {}, root, depth + 1),
      ]),
    );
  }
  if (isSchema(out.items)) out.items = portable(out.items, root, depth + 1);
  if (Array.isArray(out.anyOf))
    out.anyOf = out.anyOf.filter(isSchema).map((sub) => portable(sub, root, depth + 1));
  if (Array.isArray(out.required) && isSchema(out.properties)) {
    const properties = out.properties;
    out.required = out.required.filter((name) => typeof name === "string" && name in properties);
  }
  return out;
}

/**
 * A tool's JSON Schema in the subset every provider accepts (Gemini's is the narrowest): `$ref`s
 * inlined from `$defs`, `const` as a one-value enum, `["string", "null"]` as a nullable string, `oneOf`
 * as `anyOf`, `allOf` merged (properties and required added up), and keywords outside the subset
 * (additionalProperties, examples, default, $schema…) dropped. The arguments a model sends still go
 * to the tool's server as they are.
 */
export function portableSchema(schema: unknown): Schema {
  if (!isSchema(schema)) return { type: "object", properties: {} };
  const out = portable(schema, schema, 0);
  if (out.type === undefined) out.type = "object";
  return out;
}
