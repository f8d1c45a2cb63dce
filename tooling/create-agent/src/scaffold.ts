import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SwitchboardError } from "@switchboard/common";
import { envPrefixFor, listAgentPackages, serviceNameFor } from "@switchboard/contract";
import { COMPOSE_FILE, declaredDependencies, workspacePackages } from "@switchboard/fleet-config";
import { agentNameProblem } from "./agent-name.js";
import { addAgentToChart, removeAgentFromChart } from "./chart-edit.js";
import { addAgentToCompose, composeMentions, removeAgentFromCompose } from "./compose-edit.js";
import { addAgentToEnvExample, envExampleClashes, removeAgentFromEnvExample } from "./env-example-edit.js";
import { FileTransaction } from "./file-transaction.js";
import { biomeFormatter } from "./format.js";
import { choosePort, portsInUse } from "./ports.js";
import { FLEET_FILES, type FleetTexts, newFleetProblems, stageRepo } from "./staged-repo.js";

const ENV_EXAMPLE = FLEET_FILES.envExampleText;

import { type McpSource, mcpServerFor, mcpTemplateValues } from "./mcp-source.js";
import { credentialVariables, openApiDescription, openApiTemplateValues } from "./openapi-files.js";
import { chooseOperations, type OpenApiSource } from "./openapi-source.js";
import { agentTemplateValues, renderTemplateDir } from "./templates.js";

/** Written into a generated package.json; remove-agent only removes packages that carry it. */
export const GENERATED_BY = "@switchboard/create-agent";
const MAX_DESCRIPTION = 300;

const fleetKeys = Object.keys(FLEET_FILES) as Array<keyof FleetTexts>;

function refuse(message: string): never {
  throw new SwitchboardError("create-agent.refused", "user", message);
}

function readRepoFiles(repoRoot: string) {
  const read = (file: string) => {
    const path = join(repoRoot, file);
    if (!existsSync(path))
      refuse(`${path} is missing: run this in the Switchboard repository (or pass --root).`);
    return readFileSync(path, "utf8");
  };
  return Object.fromEntries(
    Object.entries(FLEET_FILES).map(([key, file]) => [key, read(file)]),
  ) as FleetTexts;
}

/** Runs `apply` in a transaction after checking nobody changed the fleet files meanwhile. */
function commit(
  repoRoot: string,
  original: FleetTexts,
  next: FleetTexts,
  apply: (transaction: FileTransaction) => void,
): void {
  const now = readRepoFiles(repoRoot);
  const changed = fleetKeys.filter((key) => now[key] !== original[key]).map((key) => FLEET_FILES[key]);
  if (changed.length > 0) {
    refuse(`${changed.join(" and ")} changed while the agent was being prepared; run it again.`);
  }
  const transaction = new FileTransaction();
  try {
    apply(transaction);
    for (const key of fleetKeys) transaction.writeFile(join(repoRoot, FLEET_FILES[key]), next[key]);
  } catch (error) {
    transaction.rollback();
    throw error;
  }
  transaction.commit();
}

function validateStaged(repoRoot: string, staging: string, changes: Parameters<typeof stageRepo>[2]): void {
  const problems = newFleetProblems(repoRoot, stageRepo(repoRoot, staging, changes));
  if (problems.length > 0) {
    refuse(
      `The change would leave the fleet files inconsistent, so nothing was written:\n  ${problems.join("\n  ")}`,
    );
  }
}

export interface NewAgentOptions {
  repoRoot: string;
  name: string;
  /** Default: the contract port for names the contract lists, else the first free port from 8017. */
  port?: number;
  description?: string;
  /** The agent takes its tools from this MCP server instead of the example API client. */
  mcp?: McpSource;
  /**
   * The agent is made from this OpenAPI description (loadOpenApiSource): its tools come from the
   * description at run time, one per operation (or per operation of `tags` / `operations`, which are
   * refused when the description has no such tag or operation). `argument` is the path as given,
   * named in the generated files.
   */
  openapi?: { source: OpenApiSource; argument: string; tags?: string[]; operations?: string[] };
}

export interface NewAgentResult {
  name: string;
  packageName: string;
  /** agents/<name>, absolute. */
  dir: string;
  port: number;
  serviceName: string;
  envPrefix: string;
  /** Files of the new package, relative to it. */
  files: string[];
  /** Whether its tools come from an MCP server. */
  mcp: boolean;
  /** The description's operations it was made from, when made with --openapi. */
  openapi?: {
    reads: number;
    changes: number;
    skipped: string[];
    convertedFrom?: string;
    variables: string[];
  };
}

export function defaultDescription(name: string): string {
  const { title } = agentTemplateValues({ name, port: 0, description: "" });
  return `Lists and creates ${title} items through the ${title} API (generated; describe what it does).`;
}

/** Which port new-agent would give the agent (for prompts); undefined when the name is refused. */
export function suggestPort(repoRoot: string, name: string): number | undefined {
  try {
    const { composeText } = readRepoFiles(repoRoot);
    return choosePort(name, undefined, portsInUse(name, composeText, listAgentPackages(repoRoot)));
  } catch {
    return undefined;
  }
}

/**
 * Generates agents/<name> from templates/agent and registers it in docker-compose.dev.yaml and
 * .env.example. Everything is rendered and checked (fleet-config's checks on a staged copy) before
 * the first write; the writes then land together or are rolled back.
 */
export function newAgent(options: NewAgentOptions): NewAgentResult {
  const { repoRoot, name } = options;
  const problem = agentNameProblem(name);
  if (problem) refuse(problem);
  const original = readRepoFiles(repoRoot);
  const agents = listAgentPackages(repoRoot);
  const dir = join(repoRoot, "agents", name);
  if (existsSync(dir))
    refuse(`agents/${name} already exists; pick another name or pnpm remove-agent ${name}.`);
  const same = agents.find((agent) => agent.name === name);
  if (same) refuse(`An agent named ${name} already exists (agents/${same.folder}, ${same.packageName}).`);
  const mentioned = composeMentions(original.composeText, name);
  if (mentioned) refuse(`${COMPOSE_FILE} already has ${mentioned}; remove it first.`);
  const clashes = envExampleClashes(
    original.envExampleText,
    name,
    options.openapi ? credentialVariables(options.openapi.source) : [],
  );
  if (clashes.length > 0) {
    refuse(
      `${ENV_EXAMPLE} already has ${clashes.join(", ")}: another agent uses these names; choose another.`,
    );
  }

  let port: number;
  try {
    port = choosePort(name, options.port, portsInUse(name, original.composeText, agents));
  } catch (error) {
    refuse(error instanceof Error ? error.message : String(error));
  }
  const description = (
    options.description ??
    (options.openapi ? openApiDescription(options.openapi.source) : defaultDescription(name))
  ).trim();
  if (!description || /[\r\n]/.test(description) || description.length > MAX_DESCRIPTION) {
    refuse(`The description must be one line of 1–${MAX_DESCRIPTION} characters.`);
  }

  let mcpServer: ReturnType<typeof mcpServerFor> | undefined;
  try {
    mcpServer = options.mcp ? mcpServerFor(options.mcp) : undefined;
  } catch (error) {
    refuse(error instanceof Error ? error.message : String(error));
  }
  if (mcpServer && options.openapi) refuse("Give --openapi or an MCP server, not both.");
  const base = agentTemplateValues({ name, port, description });
  const openapi = options.openapi;
  let chosen: ReturnType<typeof chooseOperations> | undefined;
  let openapiValues: ReturnType<typeof openApiTemplateValues> | undefined;
  if (openapi) {
    try {
      chosen = chooseOperations(openapi.source, {
        ...(openapi.tags ? { tags: openapi.tags } : {}),
        ...(openapi.operations ? { operations: openapi.operations } : {}),
      });
      const command = [
        `pnpm new-agent ${name} --openapi ${openapi.argument}`,
        ...(openapi.tags ? [`--tags ${openapi.tags.join(",")}`] : []),
        ...(openapi.operations ? [`--operations ${openapi.operations.join(",")}`] : []),
      ].join(" ");
      openapiValues = openApiTemplateValues(openapi.source, base, {
        specArgument: openapi.argument,
        command,
        chosen: chosen.operations,
        ...(chosen.only ? { only: chosen.only } : {}),
      });
    } catch (error) {
      refuse(error instanceof Error ? error.message : String(error));
    }
  }
  const values = {
    ...base,
    ...(options.mcp && mcpServer ? mcpTemplateValues(base.title ?? name, options.mcp, mcpServer) : {}),
    ...openapiValues,
  };
  const kind = mcpServer ? "mcp" : openapi ? "openapi" : "api";
  const files = renderTemplateDir(kind === "api" ? "agent" : `${kind}-agent`, values);
  // The description as OpenAPI 3 (a Swagger 2 one converted), read by the agent's tools at run time.
  if (openapi) files.set("openapi.json", `${JSON.stringify(openapi.source.document, null, 2)}\n`);
  const variables = openapi ? credentialVariables(openapi.source) : undefined;
  const next = {
    composeText: addAgentToCompose(original.composeText, { name, port }, values),
    envExampleText: addAgentToEnvExample(original.envExampleText, values, { kind }),
    chartText: addAgentToChart(original.chartText, {
      name,
      port,
      kind,
      ...(variables ? { secrets: variables } : {}),
    }),
  };

  const staging = mkdtempSync(join(tmpdir(), "switchboard-new-agent-"));
  try {
    const packageDir = join(staging, "package");
    const format = biomeFormatter(repoRoot);
    for (const [relative, text] of files) {
      const path = join(packageDir, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, format(`agents/${name}/${relative}`, text));
    }
    validateStaged(repoRoot, staging, { ...next, addAgent: { folder: name, dir: packageDir } });
    commit(repoRoot, original, next, (transaction) => transaction.addDirectory(packageDir, dir));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return {
    name,
    packageName: `@switchboard/agent-${name}`,
    dir,
    port,
    serviceName: serviceNameFor(name),
    envPrefix: envPrefixFor(name),
    files: [...files.keys()].sort(),
    mcp: Boolean(mcpServer),
    ...(openapi && chosen
      ? {
          openapi: {
            reads: chosen.operations.filter((operation) => operation.read).length,
            changes: chosen.operations.filter((operation) => !operation.read).length,
            skipped: openapi.source.skipped,
            ...(openapi.source.convertedFrom ? { convertedFrom: openapi.source.convertedFrom } : {}),
            variables: variables ?? [],
          },
        }
      : {}),
  };
}

export interface RemoveAgentOptions {
  repoRoot: string;
  name: string;
}

export interface RemoveAgentResult {
  name: string;
  packageName: string;
  dir: string;
}

/** Workspace packages that depend on the given one (they would break without it). */
function dependentsOf(repoRoot: string, packageName: string): string[] {
  return workspacePackages(repoRoot)
    .filter(
      ({ manifest }) =>
        manifest.name !== packageName &&
        declaredDependencies(manifest, [
          "dependencies",
          "devDependencies",
          "peerDependencies",
          "optionalDependencies",
        ]).includes(packageName),
    )
    .map(({ path }) => path);
}

/**
 * Removes a generated agent: its package folder, its compose service, the supervisor's wiring and
 * its .env.example entries, all or nothing. Refuses the supervisor, unknown names and agents that
 * new-agent did not make (their registrations are hand-written; remove those by hand).
 */
export function removeAgent(options: RemoveAgentOptions): RemoveAgentResult {
  const { repoRoot, name } = options;
  if (name === "supervisor") refuse("The supervisor is the fleet's entry point; it cannot be removed.");
  const agents = listAgentPackages(repoRoot);
  const agent = agents.find((candidate) => candidate.name === name);
  if (!agent) {
    const known = agents.map((candidate) => candidate.name).filter((known) => known !== "supervisor");
    refuse(
      `There is no agent named ${JSON.stringify(name)} under agents/ (agents: ${known.join(", ") || "none"}).`,
    );
  }
  const dir = join(repoRoot, "agents", agent.folder);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    switchboard?: { generatedBy?: string };
  };
  if (manifest.switchboard?.generatedBy !== GENERATED_BY) {
    refuse(
      `agents/${agent.folder} was not made by pnpm new-agent, so its registrations may be hand-written; ` +
        `remove it by hand (the folder, service ${serviceNameFor(name)} and the supervisor's ` +
        `ENABLE_${envPrefixFor(name)} in ${COMPOSE_FILE}, and its variables in ${ENV_EXAMPLE}).`,
    );
  }
  const dependents = dependentsOf(repoRoot, agent.packageName);
  if (dependents.length > 0) {
    refuse(`${dependents.join(", ")} depend on ${agent.packageName}; remove that dependency first.`);
  }

  const original = readRepoFiles(repoRoot);
  const next = {
    composeText: removeAgentFromCompose(original.composeText, name),
    envExampleText: removeAgentFromEnvExample(original.envExampleText, name),
    chartText: removeAgentFromChart(original.chartText, name),
  };
  const staging = mkdtempSync(join(tmpdir(), "switchboard-remove-agent-"));
  try {
    validateStaged(repoRoot, staging, { ...next, removeAgent: agent.folder });
    commit(repoRoot, original, next, (transaction) => transaction.removeDirectory(dir));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { name, packageName: agent.packageName, dir };
}
