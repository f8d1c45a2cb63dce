import { type SchemaPaths, toolNameAllowed, toolSchemaProblems } from "@switchboard/common";
import { isRecord } from "./shared.js";

// The providers' tool rules are @switchboard/common's table (PROVIDER_TOOL_RULES, re-exported by
// @switchboard/llm); here they are applied to each provider's wire form and worded as the provider
// words its refusal, so the scripted server refuses what the provider would (a tool the client mapped
// wrongly fails the test, not the user's turn).

/** Anthropic: a custom tool's name and input_schema (an object schema). */
export function anthropicToolProblems(tools: unknown[]): string[] {
  return tools.flatMap((tool, index) => {
    if (!isRecord(tool)) return [`tools.${index}: Input should be an object`];
    if (tool.type !== undefined && tool.type !== "custom") return []; // server tools (web_search, …)
    const problems: string[] = [];
    if (!toolNameAllowed("anthropic-claude", tool.name))
      problems.push(`tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (toolSchemaProblems("anthropic-claude", tool.input_schema).length > 0)
      problems.push(`tools.${index}.custom.input_schema.type: Input should be 'object'`);
    return problems;
  });
}

/** Bedrock Converse: each tool a toolSpec (name, inputSchema.json) or a cachePoint. */
export function bedrockToolProblems(tools: unknown[]): string[] {
  return tools.flatMap((tool, index) => {
    if (!isRecord(tool)) return [`toolConfig.tools.${index.toString()}: not an object`];
    if (tool.cachePoint !== undefined) return [];
    const spec = tool.toolSpec;
    if (!isRecord(spec)) return [`toolConfig.tools.${index}: a tool needs toolSpec (or cachePoint)`];
    const problems: string[] = [];
    if (!toolNameAllowed("aws-bedrock", spec.name))
      problems.push(
        `1 validation error detected: Value '${String(spec.name)}' at 'toolConfig.tools.${index + 1}.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+ and length 1 to 64`,
      );
    if (!isRecord(spec.inputSchema) || !isRecord(spec.inputSchema.json))
      problems.push(`toolConfig.tools.${index}.toolSpec.inputSchema: json is required`);
    return problems;
  });
}

/** Gemini's paths into a declaration's schema, as its refusals print them. */
const GEMINI_PATHS: SchemaPaths = {
  property: (at, name) => `${at}.properties[${JSON.stringify(name)}].value`,
  items: (at) => `${at}.items`,
  anyOf: (at, index) => `${at}.any_of[${index}]`,
};

/**
 * Gemini: each function declaration's name, and `parameters` in Gemini's Schema subset
 * (`parametersJsonSchema` takes full JSON Schema instead, so it is not checked).
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
      if (!toolNameAllowed("google-gemini", declaration.name))
        problems.push(
          `* GenerateContentRequest.${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.`,
        );
      if (declaration.parameters !== undefined)
        for (const problem of toolSchemaProblems(
          "google-gemini",
          declaration.parameters,
          `${at}.parameters`,
          GEMINI_PATHS,
        ))
          problems.push(
            problem.kind === "keyword"
              ? `Invalid JSON payload received. Unknown name "${String(problem.value)}" at '${problem.at}': Cannot find field.`
              : problem.kind === "not-schema"
                ? `${problem.at}: a schema must be an object`
                : `Invalid value at '${problem.at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(problem.value)}`,
          );
      return problems;
    });
  });
}
