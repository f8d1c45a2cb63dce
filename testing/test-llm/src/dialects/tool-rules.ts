import { isRecord } from "./shared.js";

// Each provider's documented rules for the tools a request offers, so the scripted server refuses what
// the provider would refuse (a tool the client mapped wrongly fails the test, not the user's turn).

/** Anthropic (docs.anthropic.com, tool use): name ^[a-zA-Z0-9_-]{1,64}$, input_schema an object schema. */
export function anthropicToolProblems(tools: unknown[]): string[] {
  return tools.flatMap((tool, index) => {
    if (!isRecord(tool)) return [`tools.${index}: Input should be an object`];
    if (tool.type !== undefined && tool.type !== "custom") return []; // server tools (web_search, …)
    const problems: string[] = [];
    if (typeof tool.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))
      problems.push(`tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (!isRecord(tool.input_schema) || tool.input_schema.type !== "object")
      problems.push(`tools.${index}.custom.input_schema.type: Input should be 'object'`);
    return problems;
  });
}

/** Bedrock Converse (the Smithy model's ToolSpecification): name [a-zA-Z0-9_-]+, 1 to 64 characters. */
export function bedrockToolProblems(tools: unknown[]): string[] {
  return tools.flatMap((tool, index) => {
    if (!isRecord(tool)) return [`toolConfig.tools.${index.toString()}: not an object`];
    if (tool.cachePoint !== undefined) return [];
    const spec = tool.toolSpec;
    if (!isRecord(spec)) return [`toolConfig.tools.${index}: a tool needs toolSpec (or cachePoint)`];
    const problems: string[] = [];
    if (typeof spec.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name))
      problems.push(
        `1 validation error detected: Value '${String(spec.name)}' at 'toolConfig.tools.${index + 1}.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+ and length 1 to 64`,
      );
    if (!isRecord(spec.inputSchema) || !isRecord(spec.inputSchema.json))
      problems.push(`toolConfig.tools.${index}.toolSpec.inputSchema: json is required`);
    return problems;
  });
}

/** The fields of Gemini's Schema object (ai.google.dev/api/caching#Schema), the subset it accepts. */
const GEMINI_SCHEMA_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);

function geminiSchemaProblems(schema: unknown, at: string): string[] {
  if (!isRecord(schema)) return [`${at}: a schema must be an object`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_SCHEMA_FIELDS.has(key)) {
      problems.push(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
      continue;
    }
    if (key === "type" && (typeof value !== "string" || !GEMINI_TYPES.has(value.toUpperCase())))
      problems.push(
        `Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(value)}`,
      );
    if (key === "properties" && isRecord(value))
      for (const [name, sub] of Object.entries(value))
        problems.push(...geminiSchemaProblems(sub, `${at}.properties[${JSON.stringify(name)}].value`));
    if (key === "items") problems.push(...geminiSchemaProblems(value, `${at}.items`));
    if (key === "anyOf" && Array.isArray(value))
      for (const [i, sub] of value.entries())
        problems.push(...geminiSchemaProblems(sub, `${at}.any_of[${i}]`));
  }
  return problems;
}

/**
 * Gemini (ai.google.dev/api/caching#FunctionDeclaration): a name that starts with a letter or an
 * underscore, then letters, digits, underscores, dots, colons or dashes, at most 64; `parameters` in the
 * OpenAPI subset of the Schema object (`parametersJsonSchema` takes full JSON Schema instead).
 */
export function geminiToolProblems(tools: unknown[]): string[] {
  return tools.flatMap((tool, t) => {
    if (!isRecord(tool)) return [`tools[${t}]: not an object`];
    const declarations = tool.functionDeclarations ?? tool.function_declarations;
    if (declarations === undefined) return [];
    if (!Array.isArray(declarations)) return [`tools[${t}].function_declarations: not a list`];
    return declarations.flatMap((declaration, d) => {
      const at = `tools[${t}].function_declarations[${d}]`;
      if (!isRecord(declaration)) return [`${at}: not an object`];
      const problems: string[] = [];
      if (typeof declaration.name !== "string" || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(declaration.name))
        problems.push(
          `* GenerateContentRequest.${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.`,
        );
      if (declaration.parameters !== undefined)
        problems.push(...geminiSchemaProblems(declaration.parameters, `${at}.parameters`));
      return problems;
    });
  });
}

/** A tool as a client offers it, before any provider's wire form. */
export interface OfferedTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/**
 * What each provider would refuse about these tools, by its documented rules, in the form its
 * request carries them (OpenAI and Azure: a function name of [a-zA-Z0-9_-]{1,64}; Ollama documents none).
 */
export function toolProblems(provider: string, tools: OfferedTool[]): string[] {
  switch (provider) {
    case "anthropic-claude":
      return anthropicToolProblems(
        tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      );
    case "aws-bedrock":
      return bedrockToolProblems(
        tools.map((t) => ({
          toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters } },
        })),
      );
    case "google-gemini":
      return geminiToolProblems([
        {
          functionDeclarations: tools.map((t) => ({
            name: t.name,
            description: t.description,
            parameters: t.parameters,
          })),
        },
      ]);
    case "openai":
    case "azure-openai":
      return tools
        .filter((t) => !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name))
        .map(
          (t) =>
            `Invalid 'tools[].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' (${t.name}).`,
        );
    default:
      return [];
  }
}
