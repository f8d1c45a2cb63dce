import { interopSafeParseAsync } from "@langchain/core/utils/types";
import { type JsonSchema, type OfflineTool, primaryType, requiredArguments } from "./offline-tools.js";

/** `/tool_name {"json":"args"}` or `/tool_name key=value key2="quoted value"`, split but not yet checked. */
export interface Command {
  name: string;
  /** Everything after the name, trimmed. */
  rest: string;
}

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

const COMMAND = /^\/([A-Za-z_][\w.-]*)(?:\s+([\s\S]*))?$/;

export function parseCommand(text: string): Command | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1], rest: (match[2] ?? "").trim() };
}

type Pair = [key: string, value: string, quoted: boolean];

/** Splits `a=1 b="two words" c='x'` into pairs; double quotes take \" and \\ escapes. */
export function parseKeyValues(rest: string): { ok: true; pairs: Pair[] } | { ok: false; problem: string } {
  const pairs: Pair[] = [];
  let i = 0;
  while (i < rest.length) {
    while (i < rest.length && /\s/.test(rest.charAt(i))) i++;
    if (i >= rest.length) break;
    const keyMatch = /^([A-Za-z_][\w.-]*)=/.exec(rest.slice(i));
    if (!keyMatch?.[1]) {
      const word = /^\S+/.exec(rest.slice(i))?.[0] ?? "";
      return { ok: false, problem: `expected key=value, got ${JSON.stringify(word)}` };
    }
    const key = keyMatch[1];
    i += keyMatch[0].length;
    const quote = rest.charAt(i);
    if (quote === '"' || quote === "'") {
      let value = "";
      i++;
      while (i < rest.length && rest.charAt(i) !== quote) {
        if (quote === '"' && rest.charAt(i) === "\\" && i + 1 < rest.length) {
          const next = rest.charAt(i + 1);
          value += next === "n" ? "\n" : next === "t" ? "\t" : next;
          i += 2;
        } else {
          value += rest.charAt(i++);
        }
      }
      if (i >= rest.length) return { ok: false, problem: `the value of ${key} has no closing ${quote}` };
      i++;
      pairs.push([key, value, true]);
    } else {
      const value = /^\S*/.exec(rest.slice(i))?.[0] ?? "";
      i += value.length;
      pairs.push([key, value, false]);
    }
  }
  return { ok: true, pairs };
}

function tryJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

// key=value text becomes the type the tool's schema asks for; what cannot be converted stays text and fails the check.
function coerce(value: string, schema: JsonSchema | undefined): unknown {
  switch (schema ? primaryType(schema) : undefined) {
    case "number":
    case "integer":
      return value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "array": {
      const parsed = tryJson(value);
      if (Array.isArray(parsed)) return parsed;
      const items = value.split(",").map((item) => item.trim());
      return items.map((item) => coerce(item, schema?.items));
    }
    case "object":
      return tryJson(value);
    case "enum":
      return schema?.enum?.includes(value) ? value : tryJson(value);
    default:
      return value;
  }
}

function matchesType(value: unknown, schema: JsonSchema): boolean {
  if (schema.enum) return schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0)
    return schema.anyOf ? schema.anyOf.some((branch) => matchesType(value, branch)) : true;
  return types.some((type) => {
    switch (type) {
      case "string":
        return typeof value === "string";
      case "number":
        return typeof value === "number";
      case "integer":
        return Number.isInteger(value);
      case "boolean":
        return typeof value === "boolean";
      case "array":
        return Array.isArray(value);
      case "object":
        return typeof value === "object" && value !== null && !Array.isArray(value);
      case "null":
        return value === null;
      default:
        return true;
    }
  });
}

function expected(schema: JsonSchema): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const type = primaryType(schema) ?? "valid value";
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function checkAgainstSchema(args: Record<string, unknown>, schema: JsonSchema): string[] {
  const problems: string[] = [];
  const properties = schema.properties ?? {};
  for (const name of requiredArguments(schema)) {
    if (args[name] === undefined) problems.push(`missing required argument ${name}`);
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) {
      if (schema.properties && schema.additionalProperties !== true)
        problems.push(`unknown argument ${name}`);
      continue;
    }
    if (!matchesType(value, property)) {
      problems.push(`${name} must be ${expected(property)}, got ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

/** Turns the text after the tool name into arguments and checks them against the tool's schema. */
export async function parseArguments(rest: string, tool: OfflineTool): Promise<ArgsResult> {
  let args: Record<string, unknown>;
  if (rest.startsWith("{")) {
    const parsed = tryJson(rest);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { ok: false, problems: ["the arguments start with { but are not a valid JSON object"] };
    }
    args = parsed as Record<string, unknown>;
  } else {
    const split = parseKeyValues(rest);
    if (!split.ok) return { ok: false, problems: [split.problem] };
    args = {};
    for (const [key, value, quoted] of split.pairs) {
      const schema = tool.parameters.properties?.[key];
      // A quoted value is text the user meant literally, unless the schema wants something else.
      args[key] = quoted && schema && primaryType(schema) === "string" ? value : coerce(value, schema);
    }
  }
  const problems = checkAgainstSchema(args, tool.parameters);
  if (problems.length > 0) return { ok: false, problems };
  if (tool.zodSchema) {
    const result = await interopSafeParseAsync(tool.zodSchema, args);
    if (!result.success) {
      return {
        ok: false,
        problems: result.error.issues.map((issue) =>
          issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
        ),
      };
    }
  }
  return { ok: true, args };
}
