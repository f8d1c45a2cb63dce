import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { envPrefixFor } from "@switchboard/contract";
import { agentNameProblem } from "./agent-name.js";
import { openApiDescription } from "./openapi-files.js";
import { loadOpenApiSource } from "./openapi-source.js";
import { defaultDescription, type NewAgentResult, newAgent, removeAgent, suggestPort } from "./scaffold.js";

const USAGE = `Usage:
  pnpm new-agent <name> [--port <port>] [--description "<one line>"] [--mcp-command "<cmd>" | --mcp-url <url> | --openapi <file> [--tags a,b] [--operations x,y]]
  pnpm remove-agent <name>

  <name>         lowercase letters, digits and '-', starting with a letter, at most 40 characters
  --port         the agent's port (default: its contract port, else the first free one from 8017)
  --description  what the agent does; shown on its card, for the supervisor's routing
  --mcp-command  the agent's tools come from this MCP server, started over stdio (e.g. "npx -y @modelcontextprotocol/server-memory")
  --mcp-url      the agent's tools come from the MCP server at this Streamable HTTP URL
  --openapi      the agent is made from this OpenAPI 3.0/3.1 or Swagger 2 description (JSON or YAML):
                 its tools come from it at run time, one per operation, GET operations as reads,
                 the others as changes that ask first
  --tags         with --openapi: only the operations with these tags (comma-separated)
  --operations   with --openapi: only these operations (operationIds or tool names, comma-separated)
  --root         the repository (default: the workspace above the current folder)

On a terminal, missing arguments are asked for; otherwise they must be given.`;

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Asks a question on a terminal; undefined when there is none (CI, scripts). */
  ask?: (question: string) => Promise<string>;
}

function findRepoRoot(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function terminalIo(): Io {
  const io: Io = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
  if (process.stdin.isTTY && process.stdout.isTTY) {
    io.ask = async (question) => {
      const readline = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return (await readline.question(question)).trim();
      } finally {
        readline.close();
      }
    };
  }
  return io;
}

export function nextSteps(result: NewAgentResult): string[] {
  const filter = result.packageName;
  const p = result.envPrefix;
  if (result.openapi) {
    const { reads, changes, skipped, convertedFrom, variables } = result.openapi;
    const settings = [`${p}_API_URL`, ...variables].join(", ");
    return [
      `Created agents/${result.name} (${filter}) on port ${result.port}: ${reads} read tools and ${changes} change tools`,
      "(asking first), one per operation of the description, which its tools read at run time (openapi.json):",
      ...result.files.map((file) => `  agents/${result.name}/${file}`),
      ...(convertedFrom
        ? [`The description is Swagger ${convertedFrom}: openapi.json holds it converted to OpenAPI 3.`]
        : []),
      ...(skipped.length > 0 ? [`Left out: ${skipped.join("; ")}.`] : []),
      `Registered it in docker-compose.dev.yaml (service ${result.serviceName}, profiles ${result.name} and all-agents;`,
      `the supervisor's ENABLE_${p} and ${p}_AGENT_URL) and in .env.example (ENABLE_${p}, ${p}_AGENT_URL/_HOST/_PORT,`,
      `${settings}) and the Helm chart.`,
      "",
      "Next steps:",
      "  pnpm install                                     link the new package (updates pnpm-lock.yaml)",
      `  pnpm turbo run build --filter=${filter}...`,
      `  pnpm --filter ${filter} test                     its tests, as generated, pass against a fake made from the description`,
      `  Review agents/${result.name}/src/tools.ts (which operations, which ask first) and src/prompt.ts.`,
      `  Set ${settings} in .env; ENABLE_${p}=true and ${p}_AGENT_URL=http://localhost:${result.port}`,
      "  route the supervisor to it (npm start does this itself).",
      `  pnpm remove-agent ${result.name} undoes all of this.`,
    ];
  }
  if (result.mcp) {
    return [
      `Created agents/${result.name} (${filter}) on port ${result.port}, its tools from the MCP server "${result.name}":`,
      ...result.files.map((file) => `  agents/${result.name}/${file}`),
      `Registered it in docker-compose.dev.yaml (service ${result.serviceName}, profiles ${result.name} and all-agents;`,
      `the supervisor's ENABLE_${p} and ${p}_AGENT_URL) and in .env.example (ENABLE_${p}, ${p}_AGENT_URL/_HOST/_PORT,`,
      `${p}_MCP_SERVERS).`,
      "",
      "Next steps:",
      "  pnpm install                                     link the new package (updates pnpm-lock.yaml)",
      `  pnpm turbo run build --filter=${filter}...`,
      `  pnpm --filter ${filter} test                     its tests, as generated, pass (they start the MCP server)`,
      `  Describe the agent's skills in agents/${result.name}/src/agent.ts: the supervisor routes by them.`,
      `  ${p}_MCP_SERVERS replaces the server or adds more, credentials as \${VAR} references (see .env.example);`,
      `  ${p}_MCP_READ_ONLY_TOOLS / ${p}_MCP_CONFIRM_TOOLS decide by tool name which tools ask first.`,
      `  ENABLE_${p}=true and ${p}_AGENT_URL=http://localhost:${result.port} route the supervisor to it.`,
      `  pnpm remove-agent ${result.name} undoes all of this.`,
    ];
  }
  return [
    `Created agents/${result.name} (${filter}) on port ${result.port}:`,
    ...result.files.map((file) => `  agents/${result.name}/${file}`),
    `Registered it in docker-compose.dev.yaml (service ${result.serviceName}, profiles ${result.name} and all-agents;`,
    `the supervisor's ENABLE_${p} and ${p}_AGENT_URL) and in .env.example (ENABLE_${p}, ${p}_AGENT_URL/_HOST/_PORT,`,
    `${p}_API_URL, ${p}_API_TOKEN).`,
    "",
    "Next steps:",
    "  pnpm install                                     link the new package (updates pnpm-lock.yaml)",
    `  pnpm turbo run build --filter=${filter}...`,
    `  pnpm --filter ${filter} test                     its tests, as generated, pass`,
    `  Replace the example API in agents/${result.name}/src/client.ts and src/tools.ts with the real one.`,
    `  Set ${p}_API_URL and ${p}_API_TOKEN in .env. npm start runs the new agent with the fleet and wires`,
    `  the supervisor to it (ENABLE_${p}=false leaves it out); elsewhere set ENABLE_${p}=true and`,
    `  ${p}_AGENT_URL=http://localhost:${result.port} for the supervisor. Docker:`,
    `  docker compose -f docker-compose.dev.yaml --profile all-agents up --build   (or --profile ${result.name})`,
    `  pnpm remove-agent ${result.name} undoes all of this.`,
  ];
}

/** The create-agent command: `new <name> …` or `remove <name>`. Returns the exit code. */
export async function main(argv: string[], io: Io = terminalIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: string[]) =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        port: { type: "string" },
        description: { type: "string" },
        "mcp-command": { type: "string" },
        "mcp-url": { type: "string" },
        openapi: { type: "string" },
        tags: { type: "string" },
        operations: { type: "string" },
        root: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, nameArg, ...extra] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if ((command !== "new" && command !== "remove") || extra.length > 0) {
    io.err(extra.length > 0 ? `Unexpected arguments: ${extra.join(" ")}\n\n${USAGE}` : USAGE);
    return 2;
  }
  const mcpCommand = values["mcp-command"];
  const mcpUrl = values["mcp-url"];
  const openapiPath = values.openapi;
  if ([mcpCommand, mcpUrl, openapiPath].filter((one) => one !== undefined).length > 1) {
    io.err(`Give one of --mcp-command, --mcp-url and --openapi.\n\n${USAGE}`);
    return 2;
  }
  const list = (text: string | undefined) =>
    text === undefined
      ? undefined
      : text
          .split(",")
          .map((one) => one.trim())
          .filter(Boolean);
  const tags = list(values.tags);
  const operations = list(values.operations);
  if ((tags || operations) && openapiPath === undefined) {
    io.err(`--tags and --operations choose operations of an --openapi description.\n\n${USAGE}`);
    return 2;
  }
  if (
    command === "remove" &&
    (values.port !== undefined ||
      values.description !== undefined ||
      mcpCommand !== undefined ||
      mcpUrl !== undefined ||
      openapiPath !== undefined)
  ) {
    io.err(`remove-agent takes only a name.\n\n${USAGE}`);
    return 2;
  }
  const repoRoot = values.root ? resolve(values.root) : findRepoRoot(process.cwd());
  if (!repoRoot) {
    io.err("No pnpm-workspace.yaml above the current folder: run this in the Switchboard repository.");
    return 1;
  }

  try {
    let name = nameArg;
    if (name === undefined) {
      if (!io.ask) {
        io.err(`Give the agent's name.\n\n${USAGE}`);
        return 2;
      }
      name = await io.ask(command === "new" ? "Agent name (e.g. pagerduty, my-tool): " : "Agent to remove: ");
    }
    if (command === "remove") {
      const removed = removeAgent({ repoRoot, name });
      io.out(
        `Removed agents/${removed.name} (${removed.packageName}) and its registrations in docker-compose.dev.yaml ` +
          "and .env.example. Run pnpm install to update pnpm-lock.yaml.",
      );
      return 0;
    }

    const nameProblem = agentNameProblem(name);
    if (nameProblem) {
      io.err(nameProblem);
      return 1;
    }
    let portText = values.port;
    if (portText === undefined && io.ask) {
      const suggested = suggestPort(repoRoot, name);
      portText = (await io.ask(`Port${suggested ? ` [${suggested}]` : ""}: `)) || undefined;
    }
    if (portText !== undefined && !/^\d+$/.test(portText.trim())) {
      io.err(`Port ${JSON.stringify(portText)} is not a port number.`);
      return 1;
    }
    const port = portText === undefined ? undefined : Number(portText);
    const openapi =
      openapiPath === undefined
        ? undefined
        : {
            source: await loadOpenApiSource(resolve(openapiPath), envPrefixFor(name)),
            argument: openapiPath,
            ...(tags ? { tags } : {}),
            ...(operations ? { operations } : {}),
          };
    let description = values.description;
    if (description === undefined && io.ask) {
      const fallback = openapi ? openApiDescription(openapi.source) : defaultDescription(name);
      description = (await io.ask(`Description [${fallback}]: `)) || fallback;
    }
    const result = newAgent({
      repoRoot,
      name,
      ...(port !== undefined ? { port } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(mcpCommand !== undefined ? { mcp: { command: mcpCommand } } : {}),
      ...(mcpUrl !== undefined ? { mcp: { url: mcpUrl } } : {}),
      ...(openapi ? { openapi } : {}),
    });
    for (const line of nextSteps(result)) io.out(line);
    return 0;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
