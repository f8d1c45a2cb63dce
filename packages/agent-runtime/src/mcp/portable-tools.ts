import type { StructuredToolInterface } from "@langchain/core/tools";
import { PORTABLE_TOOL_NAME } from "@switchboard/common";
import { portableSchema, portableToolName } from "@switchboard/common/portable-schema";

// The portable name and schema are made by the rules of the providers' tool rules table
// (@switchboard/common/portable-schema, shared with OpenAPI tools).
export { PORTABLE_TOOL_NAME } from "@switchboard/common";
export { portableSchema, portableToolName } from "@switchboard/common/portable-schema";

const isSchema = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Renames the MCP tools whose names some provider would refuse and rewrites their schemas into the
 * portable subset, in place; the tool still calls its MCP tool by the server's own name. Returns the
 * renames (server name → name the model sees).
 */
export function makePortable(
  tools: StructuredToolInterface[],
  nativeNames: readonly string[],
): Map<string, string> {
  const taken = new Set([
    ...nativeNames,
    ...tools.map((tool) => tool.name).filter((name) => PORTABLE_TOOL_NAME.test(name)),
  ]);
  const renamed = new Map<string, string>();
  for (const tool of tools) {
    const mutable = tool as { name: string; schema: unknown };
    if (!PORTABLE_TOOL_NAME.test(tool.name)) {
      const name = portableToolName(tool.name, taken);
      taken.add(name);
      renamed.set(tool.name, name);
      mutable.name = name;
    }
    if (isSchema(tool.schema) && !("_def" in tool.schema) && !("_zod" in tool.schema)) {
      mutable.schema = portableSchema(tool.schema);
    }
  }
  return renamed;
}
