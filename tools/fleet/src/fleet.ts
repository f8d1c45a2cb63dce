import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import {
  type AgentPackage,
  agentUrlVariableFor,
  enableVariableFor,
  envPrefixFor,
  hostEnabledVariableFor,
  hostUrlVariableFor,
  listAgentPackages,
  listFleetPackages,
  listHostPackages,
  SUPERVISOR,
} from "@switchboard/contract";
import {
  MCP_SERVER,
  RAG_SERVER,
  ragServerWanted,
  SLACK_BOT,
  startMcpServer,
  startRagServer,
  startSlackBot,
  startTriggers,
  startWeb,
  startWebexBot,
  TRIGGERS,
  WEB,
  WEBEX_BOT,
} from "./fleet-tools.js";
import { withHopKeys } from "./hop-keys.js";
import {
  type Failure,
  type FleetMember,
  type FleetOptions,
  loopbackPort,
  messageOf,
  orReported,
  startMember,
} from "./member.js";

export type { FleetMember, FleetOptions } from "./member.js";

export interface Fleet {
  supervisor: FleetMember;
  agents: FleetMember[];
  /** The hosts of agents made from configuration (agents/dynamic-agents), each serving its agents at `<url>/agents/<id>/`. */
  hosts: FleetMember[];
  /** The web chat talking to the supervisor; undefined when it did not start (see `failed`) or `web: false`. */
  web: FleetMember | undefined;
  /** The Slack relay, when SLACK_INTEGRATION_BOT_TOKEN is set; undefined otherwise or when it did not start. */
  slackBot: FleetMember | undefined;
  /** The Webex relay, when WEBEX_WEBHOOK_SECRET is set; undefined otherwise or when it did not start. */
  webexBot: FleetMember | undefined;
  /** The MCP server, when `mcpServer` was asked for; undefined otherwise or when it did not start. */
  mcpServer: FleetMember | undefined;
  /** Switchboard's knowledge base (tools/rag-server), when it runs (see startRagServer). */
  ragServer: FleetMember | undefined;
  /** The trigger receiver, when TRIGGERS_CONFIG_FILE is set; undefined otherwise or when it did not start. */
  triggers: FleetMember | undefined;
  /** Agents that did not start, each with the tail of its output. */
  failed: Failure[];
  stop(): Promise<void>;
}

/**
 * `ENABLE_<AGENT>=false` for every agent package of `root` but `keep` (the supervisor always runs),
 * and `<HOST>_ENABLED=false` for every host of configured agents not in `keep`: a fleet of just
 * those, however many packages the repository holds.
 */
export function onlyAgents(root: string, keep: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    listFleetPackages(root)
      .filter((agent) => agent.name !== SUPERVISOR && !keep.includes(agent.name))
      .map((agent) => [
        agent.kind === "host" ? hostEnabledVariableFor(agent.name) : enableVariableFor(agent.name),
        "false",
      ]),
  );
}

/** The app-config file npm start gives a host when APP_CONFIG_FILE is unset: one agent on the offline model. */
export const DEFAULT_APP_CONFIG = join(import.meta.dirname, "..", "config", "app-config.yaml");

/**
 * Starts every enabled agent package (ENABLE_<AGENT>=false leaves one out) on its contract port
 * (<AGENT>_AGENT_PORT overrides) and every host of configured agents (CAIPE's
 * DYNAMIC_AGENTS_ENABLED=false leaves it out; see startHost), then the supervisor (SUPERVISOR_PORT
 * overrides) wired to them: ENABLE_<AGENT> and <AGENT>_AGENT_URL for each agent, DYNAMIC_AGENTS_URL
 * for the host, whose agents it lists there.
 * Agents start as many at a time as the machine has cores: a start is CPU-bound (loading modules),
 * so sixteen at once on two cores finish no sooner, and each would wait on the others past its
 * start timeout.
 * An agent that fails to start is reported, not fatal; a supervisor that fails stops the fleet.
 */
export async function startFleet(given: FleetOptions): Promise<Fleet> {
  const options = { ...given, env: withHopKeys(given.env) };
  const packages = listAgentPackages(options.root);
  const supervisor = packages.find((agent) => agent.name === SUPERVISOR);
  const agents = packages.filter((agent) => agent.name !== SUPERVISOR);
  if (!supervisor) throw new Error(`No supervisor package under ${options.root}/agents.`);
  const enabled = agents.filter((agent) => options.env[enableVariableFor(agent.name)]?.trim() !== "false");
  const allHosts = listHostPackages(options.root);
  const hosts = allHosts.filter((host) => hostEnabled(host, options.env));

  const toStart = [...enabled, ...hosts];
  const started = await settledFewAtATime(
    toStart.map(
      (agent) => () =>
        agent.kind === "host"
          ? startHost(agent, options)
          : start(agent, options, localPort(agent, options.env)),
    ),
    availableParallelism(),
  );
  const members: FleetMember[] = [];
  const hostMembers: FleetMember[] = [];
  const failed: Failure[] = [];
  started.forEach((result, index) => {
    const agent = toStart[index] as AgentPackage;
    if (result.status === "fulfilled") (agent.kind === "host" ? hostMembers : members).push(result.value);
    else failed.push({ name: agent.name, error: messageOf(result.reason) });
  });

  // The supervisor and the web chat find a host's agents at <HOST>_URL: the one running here, else
  // none (undefined removes it), so a CAIPE .env's container URL (http://dynamic-agents:8001) is not
  // polled in vain.
  const hostUrls: NodeJS.ProcessEnv = Object.fromEntries(
    allHosts.map((host) => [
      hostUrlVariableFor(host.name),
      hostMembers.find((member) => member.name === host.name)?.url,
    ]),
  );
  const wiring: NodeJS.ProcessEnv = { ...hostUrls };
  for (const member of members) {
    wiring[enableVariableFor(member.name)] = "true";
    wiring[agentUrlVariableFor(member.name)] = member.url;
  }
  const stopAll = async (list: FleetMember[]) => {
    await Promise.all(list.map((member) => member.process.kill("SIGTERM")));
  };
  // The knowledge base before the supervisor, which takes its tools (ENABLE_RAG, RAG_SERVER_URL).
  const ragServer = ragServerWanted(options.env)
    ? await orReported(failed, RAG_SERVER, startRagServer(options))
    : undefined;
  if (ragServer) Object.assign(wiring, { ENABLE_RAG: "true", RAG_SERVER_URL: ragServer.url });
  let head: FleetMember;
  try {
    head = await start(
      supervisor,
      { ...options, env: withWiring(options.env, wiring) },
      options.env.SUPERVISOR_PORT,
    );
  } catch (error) {
    await stopAll([...members, ...hostMembers, ...(ragServer ? [ragServer] : [])]);
    throw error;
  }
  // The tools below are for people: one that cannot start is reported, and the fleet runs without it.
  // The trigger receiver first: the web chat shows its runs, and the Slack and Webex bots pass on
  // presses on their questions (TRIGGERS_URL).
  const triggers = options.env.TRIGGERS_CONFIG_FILE?.trim()
    ? await orReported(failed, TRIGGERS, startTriggers(options, head.url))
    : undefined;
  const triggersWiring = triggers && !options.env.TRIGGERS_URL?.trim() ? { TRIGGERS_URL: triggers.url } : {};
  // The web chat offers the knowledge base's Sources page when one runs here (ENABLE_RAG, RAG_SERVER_URL).
  const ragWiring = ragServer ? { ENABLE_RAG: "true", RAG_SERVER_URL: ragServer.url } : {};
  const webEnv = withWiring(options.env, { ...hostUrls, ...triggersWiring, ...ragWiring });
  const web =
    options.web === false
      ? undefined
      : await orReported(failed, WEB, startWeb({ ...options, env: webEnv }, head.url));
  const slackBot = options.env.SLACK_INTEGRATION_BOT_TOKEN?.trim()
    ? await orReported(
        failed,
        SLACK_BOT,
        startSlackBot({ ...options, env: { ...options.env, ...triggersWiring } }, head.url, web?.url),
      )
    : undefined;
  const webexBot = options.env.WEBEX_WEBHOOK_SECRET?.trim()
    ? await orReported(
        failed,
        WEBEX_BOT,
        startWebexBot({ ...options, env: { ...options.env, ...triggersWiring } }, head.url, web?.url),
      )
    : undefined;
  const mcpServer = options.mcpServer
    ? await orReported(failed, MCP_SERVER, startMcpServer(options, head.url, web?.url))
    : undefined;
  const tools = [slackBot, webexBot, mcpServer, triggers, web].filter(
    (tool): tool is FleetMember => tool !== undefined,
  );
  return {
    supervisor: head,
    agents: members,
    hosts: hostMembers,
    web,
    slackBot,
    webexBot,
    mcpServer,
    ragServer,
    triggers,
    failed,
    stop: () => stopAll([...tools, head, ...members, ...hostMembers, ...(ragServer ? [ragServer] : [])]),
  };
}

/** `env` with `wiring` applied: a variable wired to undefined is removed. */
function withWiring(env: NodeJS.ProcessEnv, wiring: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const next = { ...env, ...wiring };
  for (const [name, value] of Object.entries(wiring)) if (value === undefined) delete next[name];
  return next;
}

/** Whether npm start runs a host: unless `<HOST>_ENABLED` (CAIPE's DYNAMIC_AGENTS_ENABLED) says false. */
function hostEnabled(host: AgentPackage, env: NodeJS.ProcessEnv): boolean {
  const value = env[hostEnabledVariableFor(host.name)]?.trim().toLowerCase();
  return !["false", "0", "no", "off"].includes(value ?? "");
}

/**
 * Starts a host of configured agents on its port, or on the port of `<HOST>_URL` when that names this
 * machine (DYNAMIC_AGENTS_URL=http://localhost:8200), reading APP_CONFIG_FILE (relative to the
 * repository, as CAIPE's .env writes it), else DEFAULT_APP_CONFIG.
 */
function startHost(host: AgentPackage, options: FleetOptions): Promise<FleetMember> {
  const env = { ...options.env, APP_CONFIG_FILE: appConfigFile(options.root, options.env) };
  return start(host, { ...options, env }, loopbackPort(options.env[hostUrlVariableFor(host.name)]));
}

/** The app-config file npm start gives a host: APP_CONFIG_FILE, relative to the repository, else DEFAULT_APP_CONFIG. */
export function appConfigFile(root: string, env: NodeJS.ProcessEnv): string {
  const file = env.APP_CONFIG_FILE?.trim();
  return file ? resolve(root, file) : DEFAULT_APP_CONFIG;
}

/**
 * The port to run an agent on: <AGENT>_AGENT_PORT when it describes this machine. A CAIPE .env
 * written for containers (JIRA_AGENT_HOST=agent-jira, JIRA_AGENT_PORT=8000) keeps the contract port.
 */
function localPort(agent: AgentPackage, env: NodeJS.ProcessEnv): string | undefined {
  const prefix = envPrefixFor(agent.name);
  const host = env[`${prefix}_AGENT_HOST`]?.trim();
  const local = !host || host === "localhost" || host.startsWith("127.") || host === "::1";
  return local ? env[`${prefix}_AGENT_PORT`]?.trim() || undefined : undefined;
}

function start(agent: AgentPackage, options: FleetOptions, port: string | undefined): Promise<FleetMember> {
  const env: NodeJS.ProcessEnv = { ...options.env, HOST: options.env.HOST ?? "127.0.0.1" };
  delete env.PORT;
  delete env.AGENT_NAME;
  delete env.AGENT_PUBLIC_URL;
  if (port) env.PORT = port;
  return startMember(options, agent.name, agent.dir, env);
}

/** Runs `tasks`, at most `limit` at once, and settles each as Promise.allSettled does (in order). */
async function settledFewAtATime<T>(
  tasks: Array<() => Promise<T>>,
  limit: number,
): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)().then(
        (value): PromiseSettledResult<T> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseSettledResult<T> => ({ status: "rejected", reason }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return results;
}
