import { checkCaipeNames } from "./caipe-check.js";
import { checkChart } from "./chart.js";
import { checkCompose } from "./compose.js";
import { checkDockerfile } from "./dockerfile.js";
import { checkEnvExample } from "./env-check.js";
import type { EnvScanCache } from "./env-scan.js";
import { checkLlmOverrides } from "./llm-check.js";
import { checkMcpSettings } from "./mcp-check.js";

/**
 * Every static fleet check at once: docker-compose.dev.yaml, Dockerfile, .env.example, the Helm
 * chart's values, the agents' MCP settings in them, per-agent LLM overrides, and CAIPE's variable names. The agent scaffolder runs it after adding or removing an agent. Empty when all is well.
 * `cache` keeps the parsed sources between calls (see env-scan.ts).
 */
export function checkFleet(repoRoot: string, options: { cache?: EnvScanCache } = {}): string[] {
  // One scan of the code's env reads serves both checks that need it (and, given a cache, later calls).
  const cache = options.cache ?? new Map();
  return [
    ...checkCompose(repoRoot),
    ...checkDockerfile(repoRoot),
    ...checkEnvExample(repoRoot, cache),
    ...checkChart(repoRoot),
    ...checkMcpSettings(repoRoot),
    ...checkLlmOverrides(repoRoot),
    ...checkCaipeNames(repoRoot, cache),
  ];
}
