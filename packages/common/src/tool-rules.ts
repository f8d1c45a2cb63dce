// Each LLM provider's documented rules for the tools a request offers, in one table: the runtime maps
// MCP tools into what every provider takes (agent-runtime's portable-tools.ts), the scripted test server
// refuses what the provider would refuse (test-llm's dialects), and a test holds every agent's own tools
// to them. It lives here, not in @switchboard/llm, because test-llm may not depend on llm (llm's tests
// depend on test-llm); @switchboard/llm re-exports it.

/** The providers, spelled as `LLM_PROVIDER` takes them. */
export type ToolRulesProvider =
  | "openai"
  | "azure-openai"
  | "anthropic-claude"
  | "aws-bedrock"
  | "google-gemini"
  | "ollama";

export interface ProviderToolRules {
  /** Where the rules are documented. */
  source: string;
  /** The pattern a tool name must match, and the rule in words; undefined: none documented. */
  name?: { pattern: RegExp; rule: string };
  /** The parameters' schema must be `{"type": "object", …}`. */
  objectParameters: boolean;
  /**
   * The only keywords a parameters schema (and each schema inside it) may hold, and the types it may
   * name (case-insensitive); undefined: any JSON Schema.
   */
  schemaSubset?: { keywords: ReadonlySet<string>; types: ReadonlySet<string> };
}

/** [a-zA-Z0-9_-]{1,64}: OpenAI's function names, Anthropic's tool names, Bedrock's ToolSpecification. */
const ALPHANUMERIC_64 = {
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  rule: "letters, digits, _ and -, 1 to 64 characters",
};

/** The fields of Gemini's Schema object (ai.google.dev/api/caching#Schema): the subset of JSON Schema it takes. */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
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

/** The table. Ollama documents no rules: the model's template decides. */
export const PROVIDER_TOOL_RULES: Readonly<Record<ToolRulesProvider, ProviderToolRules>> = {
  openai: {
    source: "platform.openai.com/docs/api-reference/chat/create (tools[].function)",
    name: ALPHANUMERIC_64,
    objectParameters: true,
  },
  "azure-openai": {
    source: "learn.microsoft.com/azure/ai-foundry/openai/reference (as OpenAI's)",
    name: ALPHANUMERIC_64,
    objectParameters: true,
  },
  "anthropic-claude": {
    source: "docs.anthropic.com/en/docs/agents-and-tools/tool-use (name, input_schema)",
    name: ALPHANUMERIC_64,
    objectParameters: true,
  },
  "aws-bedrock": {
    source: "Bedrock Runtime's Smithy model, ToolSpecification (name, inputSchema.json)",
    name: ALPHANUMERIC_64,
    objectParameters: false,
  },
  "google-gemini": {
    source: "ai.google.dev/api/caching#FunctionDeclaration and #Schema",
    name: {
      pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
      rule: "a letter or _ first, then letters, digits, _, ., : and -, at most 64 characters",
    },
    objectParameters: false,
    schemaSubset: {
      keywords: GEMINI_SCHEMA_KEYWORDS,
      types: new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]),
    },
  },
  ollama: { source: "github.com/ollama/ollama docs/api.md (no rules)", objectParameters: false },
};

/**
 * A name every provider takes (the intersection of the name rules above): Gemini wants a letter or an
 * underscore first, the others refuse its dots and colons.
 */
export const PORTABLE_TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * The schema keywords kept when a schema is made portable: Gemini's subset without `example`,
 * `propertyOrdering` and `default` (Gemini-only or pointless to send).
 */
export const PORTABLE_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(
  [...GEMINI_SCHEMA_KEYWORDS].filter(
    (keyword) => !["example", "propertyOrdering", "default"].includes(keyword),
  ),
);

/** The formats a portable schema keeps per type (what Gemini's Schema documented before it took any format). */
export const PORTABLE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

/** One broken rule, where it is (a path into the parameters schema, `` for the schema itself). */
export interface SchemaProblem {
  /** The path of the schema holding the problem, as `path` built it. */
  at: string;
  kind: "keyword" | "type" | "not-object" | "not-schema";
  /** The keyword at fault, or the type named. */
  value: unknown;
}

/** How a schema path is written: JSON-pointer-like by default, a provider's own form when it echoes one. */
export interface SchemaPaths {
  property(at: string, name: string): string;
  items(at: string): string;
  anyOf(at: string, index: number): string;
}

const POINTER_PATHS: SchemaPaths = {
  property: (at, name) => `${at}/properties/${name}`,
  items: (at) => `${at}/items`,
  anyOf: (at, index) => `${at}/anyOf/${index}`,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function subsetProblems(
  subset: NonNullable<ProviderToolRules["schemaSubset"]>,
  schema: unknown,
  at: string,
  paths: SchemaPaths,
): SchemaProblem[] {
  if (!isRecord(schema)) return [{ at, kind: "not-schema", value: schema }];
  const problems: SchemaProblem[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!subset.keywords.has(key)) {
      problems.push({ at, kind: "keyword", value: key });
      continue;
    }
    if (key === "type" && (typeof value !== "string" || !subset.types.has(value.toUpperCase())))
      problems.push({ at, kind: "type", value });
    if (key === "properties" && isRecord(value))
      for (const [name, sub] of Object.entries(value))
        problems.push(...subsetProblems(subset, sub, paths.property(at, name), paths));
    if (key === "items") problems.push(...subsetProblems(subset, value, paths.items(at), paths));
    if (key === "anyOf" && Array.isArray(value))
      for (const [i, sub] of value.entries())
        problems.push(...subsetProblems(subset, sub, paths.anyOf(at, i), paths));
  }
  return problems;
}

/** What `provider` would refuse about a tool's parameters schema, by the table. */
export function toolSchemaProblems(
  provider: ToolRulesProvider,
  schema: unknown,
  at = "",
  paths: SchemaPaths = POINTER_PATHS,
): SchemaProblem[] {
  const rules = PROVIDER_TOOL_RULES[provider];
  // A tool without parameters may leave them out where the provider does not require an object.
  if (schema === undefined && !rules.objectParameters) return [];
  const problems: SchemaProblem[] = [];
  if (rules.objectParameters && !(isRecord(schema) && schema.type === "object"))
    problems.push({ at, kind: "not-object", value: isRecord(schema) ? schema.type : schema });
  if (rules.schemaSubset) problems.push(...subsetProblems(rules.schemaSubset, schema, at, paths));
  return problems;
}

/** Whether `provider` takes `name` as a tool name. */
export function toolNameAllowed(provider: ToolRulesProvider, name: unknown): boolean {
  const rule = PROVIDER_TOOL_RULES[provider].name;
  return typeof name === "string" && (rule === undefined || rule.pattern.test(name));
}

/** A tool as a client offers it, before any provider's wire form. */
export interface OfferedTool {
  name: string;
  description?: string;
  parameters: unknown;
}

/**
 * What `provider` would refuse about these tools, one line per broken rule naming the tool, the
 * provider and the rule (for tests and checks; test-llm's dialects word them as each provider does).
 */
export function toolProblems(provider: ToolRulesProvider, tools: readonly OfferedTool[]): string[] {
  const rules = PROVIDER_TOOL_RULES[provider];
  return tools.flatMap((tool) => {
    const problems: string[] = [];
    if (!toolNameAllowed(provider, tool.name))
      problems.push(`${provider}: tool name "${tool.name}" breaks the rule: ${rules.name?.rule}.`);
    for (const problem of toolSchemaProblems(provider, tool.parameters)) {
      const where = `tool ${tool.name}'s parameters${problem.at ? ` at ${problem.at}` : ""}`;
      problems.push(
        problem.kind === "keyword"
          ? `${provider}: ${where}: keyword ${String(problem.value)} is not in the provider's schema subset.`
          : problem.kind === "type"
            ? `${provider}: ${where}: type ${JSON.stringify(problem.value)} is not one the provider takes.`
            : problem.kind === "not-schema"
              ? `${provider}: ${where}: not a schema (a JSON object).`
              : `${provider}: ${where}: the parameters must be an object schema ({"type": "object"}).`,
      );
    }
    return problems;
  });
}
