import type { BindToolsInput } from "@langchain/core/language_models/chat_models";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { type InteropZodType, isInteropZodSchema } from "@langchain/core/utils/types";

/** The part of a JSON Schema the offline model reads to parse, check and describe arguments. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  default?: unknown;
}

/** A bound tool as the offline model sees it. */
export interface OfflineTool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** The tool's own zod schema, when it has one: the final word on whether arguments are valid. */
  zodSchema?: InteropZodType;
}

export function describeTools(tools: readonly BindToolsInput[]): OfflineTool[] {
  return tools.map((tool) => {
    const converted = convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
    const schema = (tool as { schema?: unknown }).schema;
    return {
      name: converted.function.name,
      description: converted.function.description ?? "",
      parameters: (converted.function.parameters ?? {}) as JsonSchema,
      ...(isInteropZodSchema(schema) ? { zodSchema: schema } : {}),
    };
  });
}

/** The first concrete type of a property (`["string","null"]` and `anyOf` unions included). */
export function primaryType(schema: JsonSchema): string | undefined {
  if (schema.enum) return "enum";
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((t) => t !== "null");
  if (type) return type;
  const branch = schema.anyOf?.find((s) => primaryType(s) !== undefined && s.type !== "null");
  return branch ? primaryType(branch) : undefined;
}

function typeLabel(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  const type = primaryType(schema) ?? "value";
  if (type === "array" && schema.items) return `${typeLabel(schema.items)}[]`;
  return type;
}

function properties(tool: OfflineTool): [string, JsonSchema][] {
  return Object.entries(tool.parameters.properties ?? {});
}

function isRequired(tool: OfflineTool, name: string): boolean {
  return requiredArguments(tool.parameters).includes(name);
}

/**
 * Arguments a person must give: the schema's required ones, less those with a default (tool
 * schemas list defaulted fields as required, since the model always sees them filled in).
 */
export function requiredArguments(schema: JsonSchema): string[] {
  return (schema.required ?? []).filter((name) => schema.properties?.[name]?.default === undefined);
}

/** `/search_issues query=<string> [limit=<number>]` */
export function usage(tool: OfflineTool): string {
  const args = properties(tool).map(([name, schema]) => {
    const arg = `${name}=<${typeLabel(schema)}>`;
    return isRequired(tool, name) ? arg : `[${arg}]`;
  });
  return [`/${tool.name}`, ...args].join(" ");
}

/** One line per argument: name, type, required or not, description. */
export function argumentLines(tool: OfflineTool): string[] {
  return properties(tool).map(([name, schema]) => {
    const flags = [typeLabel(schema), isRequired(tool, name) ? "required" : "optional"].join(", ");
    return `    ${name} (${flags})${schema.description ? `: ${schema.description}` : ""}`;
  });
}

function sampleValue(schema: JsonSchema): string {
  if (schema.enum && schema.enum.length > 0) return formatValue(schema.enum[0]);
  switch (primaryType(schema)) {
    case "number":
    case "integer":
      return "1";
    case "boolean":
      return "true";
    case "array":
      return `'${JSON.stringify([schema.items && primaryType(schema.items) === "number" ? 1 : "item"])}'`;
    case "object":
      return "'{}'";
    default:
      return '"some text"';
  }
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"'=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** A command that calls the tool with every required argument filled in. */
export function example(tool: OfflineTool): string {
  const args = properties(tool)
    .filter(([name]) => isRequired(tool, name))
    .map(([name, schema]) => `${name}=${sampleValue(schema)}`);
  return [`/${tool.name}`, ...args].join(" ");
}

export function toolList(tools: readonly OfflineTool[]): string {
  return tools
    .map((tool) => {
      const head = `  ${usage(tool)}${tool.description ? `\n    ${tool.description}` : ""}`;
      return [head, ...argumentLines(tool)].join("\n");
    })
    .join("\n");
}
