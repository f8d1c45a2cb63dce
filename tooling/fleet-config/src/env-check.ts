import {
  envPrefixFor,
  hostEnabledVariableFor,
  hostUrlVariableFor,
  listAgentPackages,
  listHostPackages,
  SUPERVISOR,
} from "@switchboard/contract";
import { COMPOSE_FILE, environmentOf, readComposeFile } from "./compose.js";
import { DOCUMENTED_AHEAD, READ_BY_LIBRARIES } from "./contract.js";
import { readEnvExample } from "./env-example.js";
import { type EnvScanCache, scanEnvReads } from "./env-scan.js";
import { interpolatedNames } from "./interpolate.js";
import { agentLlmVariable } from "./llm-check.js";
import { agentMcpVariables, mcpReferencedVariables } from "./mcp-check.js";
import { runtimePackageDirs } from "./workspace.js";

/**
 * Checks that .env.example documents every variable the fleet's code reads (see env-scan.ts for how
 * reads are found) and nothing else. Besides code reads, it may hold what docker-compose.dev.yaml
 * references and the variables listed in DOCUMENTED_AHEAD. For each agent package it must carry
 * the supervisor's ENABLE_<AGENT>, <AGENT>_AGENT_URL, _HOST and _PORT; for each host of configured
 * agents its <HOST>_URL and <HOST>_ENABLED (CAIPE's DYNAMIC_AGENTS_URL and DYNAMIC_AGENTS_ENABLED,
 * read by name by npm start and the supervisor).
 * Returns one line per problem; an empty list means the file is right.
 */
export function checkEnvExample(repoRoot: string, cache?: EnvScanCache): string[] {
  const problems: string[] = [];
  const example = readEnvExample(repoRoot);
  const reads = scanEnvReads(repoRoot, runtimePackageDirs(repoRoot), cache);

  for (const name of example.duplicates) problems.push(`.env.example: ${name} is written more than once.`);
  for (const line of example.malformed)
    problems.push(`.env.example line ${line}: not a comment nor NAME=value.`);

  for (const [name, files] of [...reads.names].sort(([a], [b]) => a.localeCompare(b))) {
    if (!example.variables.has(name))
      problems.push(`${files.join(", ")} reads ${name}; document it in .env.example.`);
  }
  for (const pattern of reads.patterns) {
    const covered = [...example.variables.keys(), ...example.mentioned].some((name) =>
      pattern.regex.test(name),
    );
    if (!covered)
      problems.push(
        `${pattern.file} reads variables named ${pattern.source}; document them in .env.example.`,
      );
  }
  for (const agent of listAgentPackages(repoRoot).filter((candidate) => candidate.name !== SUPERVISOR)) {
    const prefix = envPrefixFor(agent.name);
    for (const name of [
      `ENABLE_${prefix}`,
      `${prefix}_AGENT_URL`,
      `${prefix}_AGENT_HOST`,
      `${prefix}_AGENT_PORT`,
    ]) {
      if (!example.variables.has(name))
        problems.push(`.env.example: add ${name} (supervisor wiring for agents/${agent.folder}).`);
    }
  }
  const hostVariables = new Set<string>();
  for (const host of listHostPackages(repoRoot)) {
    const url = hostUrlVariableFor(host.name);
    const enabled = hostEnabledVariableFor(host.name);
    hostVariables.add(url).add(enabled);
    if (!example.variables.has(url))
      problems.push(`.env.example: add ${url} (where the supervisor finds agents/${host.folder}'s agents).`);
    if (!example.variables.has(enabled))
      problems.push(`.env.example: add ${enabled} (whether npm start runs agents/${host.folder}).`);
  }

  const composeNames = new Set<string>();
  try {
    const compose = readComposeFile(repoRoot);
    for (const name of interpolatedNames(compose.text)) composeNames.add(name);
    for (const service of Object.values(compose.document.services ?? {})) {
      for (const key of environmentOf(service).keys()) composeNames.add(key);
    }
  } catch {
    // checkCompose reports an unreadable compose file.
  }
  // Read for each agent by name (<AGENT>_MCP_SERVERS, …), and what their server lists refer to.
  const mcpVariables = new Set([...agentMcpVariables(repoRoot), ...mcpReferencedVariables(repoRoot)]);
  // <AGENT>_<LLM variable> (SUPERVISOR_LLM_PROVIDER, …): @switchboard/llm reads them for each agent.
  const agentNames = listAgentPackages(repoRoot).map((agent) => agent.name);
  for (const [name, { line }] of example.variables) {
    const read =
      reads.names.has(name) ||
      mcpVariables.has(name) ||
      hostVariables.has(name) ||
      agentLlmVariable(name, agentNames) !== undefined ||
      reads.patterns.some((pattern) => pattern.regex.test(name)) ||
      composeNames.has(name) ||
      DOCUMENTED_AHEAD.includes(name) ||
      READ_BY_LIBRARIES.includes(name);
    if (!read) {
      problems.push(
        `.env.example line ${line}: nothing reads ${name} (no code, nor ${COMPOSE_FILE}); remove it.`,
      );
    }
  }
  return problems;
}
