import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentTool } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { openApiTools, type ToolsOptions } from "@switchboard/openapi-tools";
import { AUTH, readPetstoreSettings } from "./env.js";

/**
 * The package's openapi.json, beside its package.json: found from this module's own place, so it is
 * the same file whether the code runs from src/ (tests, tsx), dist/ (tsc) or dist/chunks/ (the bundle).
 */
export function descriptionFile(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`No package.json above ${fileURLToPath(from)} to find openapi.json beside.`);
    dir = parent;
  }
  return join(dir, "openapi.json");
}

/**
 * Per-operation overrides, by tool name: true asks the user first, false runs at once. A tool not
 * listed keeps the default: GET and HEAD operations read, every other method asks first.
 */
export const ASKS_FIRST: Record<string, boolean> = {};

/** Which operations become tools (`--tags`, `--operations`); empty: every operation. */
export const CHOSEN: ToolsOptions = {};

/**
 * One tool per operation of openapi.json, as @switchboard/openapi-tools reads it at start (the same
 * reading configured agents' OpenAPI sources get): arguments checked against the description's
 * schemas, requests built and credentials sent as it says, failures named by the API's status.
 */
export async function petstoreTools(env: NodeJS.ProcessEnv, logger: Logger): Promise<AgentTool[]> {
  const { url } = readPetstoreSettings(env);
  const api = await openApiTools({
    document: descriptionFile(),
    ...(url ? { baseUrl: url } : {}),
    env,
    auth: AUTH,
    logger,
    label: "The Petstore agent's OpenAPI description (openapi.json)",
  });
  return api.tools({ ...CHOSEN, asks: (tool) => ASKS_FIRST[tool] });
}
