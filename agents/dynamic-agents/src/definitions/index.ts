import { SwitchboardError } from "@switchboard/common";
import type { Router } from "express";
import type { DefinitionSource, DefinitionsApiOptions, OpenDefinitionsOptions } from "./spec.js";

export type * from "./spec.js";

/** The file (APP_CONFIG_FILE) and the store merged into one source of configured agents. */
export async function openDefinitions(_options: OpenDefinitionsOptions): Promise<DefinitionSource> {
  throw new SwitchboardError("definitions.pending", "system", "openDefinitions is not built yet");
}

/** CAIPE's /api/v1/agents (and GET /api/v1/mcp-servers, /api/v1/llm-models), as express routes. */
export function definitionsApi(_options: DefinitionsApiOptions): Router {
  throw new SwitchboardError("definitions.pending", "system", "definitionsApi is not built yet");
}
