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
  WEB_UI_PORT,
} from "@switchboard/contract";
import { type AgentProcess, startAgentProcess } from "./agent-process.js";
import { withHopKeys } from "./hop-keys.js";

export interface FleetMember {
  name: string;
  url: string;
  process: AgentProcess;
}

export interface Fleet {
  supervisor: FleetMember;
  agents: FleetMember[];
  /** The hosts of agents made from configuration (agents/dynamic-agents), each serving its agents at `<url>/agents/<id>/`. */
  hosts: FleetMember[];
  /** The web chat talking to the supervisor; undefined when it did not start (see `failed`). */
  web: FleetMember | undefined;
  /** The Slack relay, when SLACK_INTEGRATION_BOT_TOKEN is set; undefined otherwise or when it did not start. */
  slackBot: FleetMember | undefined;
  /** The Webex relay, when WEBEX_WEBHOOK_SECRET is set; undefined otherwise or when it did not start. */
  webexBot: FleetMember | undefined;
  /** Switchboard's knowledge base (tools/rag-server), when it runs (see startRagServer). */
  ragServer: FleetMember | undefined;
  /** Agents that did not start, each with the tail of its output. */
  failed: Array<{ name: string; error: string }>;
  stop(): Promise<void>;
}

export interface FleetOptions {
  root: string;
  /** The environment every agent starts with (the caller's env plus .env). */
  env: NodeJS.ProcessEnv;
  /** Every line any agent prints, with the agent's name. */
  onLine?: (agent: string, line: string) => void;
  /** Reports each agent as it becomes ready or fails. */
  onStatus?: (agent: string, status: "starting" | "ready" | "failed", detail?: string) => void;
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
  const failed: Fleet["failed"] = [];
  started.forEach((result, index) => {
    const agent = toStart[index] as AgentPackage;
    if (result.status === "fulfilled") (agent.kind === "host" ? hostMembers : members).push(result.value);
    else
      failed.push({
        name: agent.name,
        error: result.reason instanceof Error ? result.reason.message : String(result.reason),
      });
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
    ? await startRagServer(options).catch((error: unknown) => {
        failed.push({ name: RAG_SERVER, error: error instanceof Error ? error.message : String(error) });
        return undefined;
      })
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
  // The web chat is for people: one that cannot start is reported, and the fleet runs without it.
  // It offers the knowledge base's Sources page when one runs here (ENABLE_RAG, RAG_SERVER_URL).
  const webWiring = ragServer ? { ...hostUrls, ENABLE_RAG: "true", RAG_SERVER_URL: ragServer.url } : hostUrls;
  const web = await startWeb({ ...options, env: withWiring(options.env, webWiring) }, head.url).catch(
    (error: unknown) => {
      failed.push({ name: WEB, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    },
  );
  const slackBot = options.env.SLACK_INTEGRATION_BOT_TOKEN?.trim()
    ? await startSlackBot(options, head.url, web?.url).catch((error: unknown) => {
        failed.push({ name: SLACK_BOT, error: error instanceof Error ? error.message : String(error) });
        return undefined;
      })
    : undefined;
  const webexBot = options.env.WEBEX_WEBHOOK_SECRET?.trim()
    ? await startWebexBot(options, head.url).catch((error: unknown) => {
        failed.push({ name: WEBEX_BOT, error: error instanceof Error ? error.message : String(error) });
        return undefined;
      })
    : undefined;
  const tools = [...(slackBot ? [slackBot] : []), ...(webexBot ? [webexBot] : []), ...(web ? [web] : [])];
  return {
    supervisor: head,
    agents: members,
    hosts: hostMembers,
    web,
    slackBot,
    webexBot,
    ragServer,
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

/** The port of a URL on this machine; undefined for another machine's (a CAIPE .env's container URL). */
function loopbackPort(url: string | undefined): string | undefined {
  try {
    const { hostname, port } = new URL(url ?? "");
    const local = hostname === "localhost" || hostname.startsWith("127.") || hostname === "[::1]";
    return local && port ? port : undefined;
  } catch {
    return undefined;
  }
}

const SLACK_BOT = "slack-bot";
/** tools/slack-bot's own port (its health, metrics and account-link pages), beside the web chat's. */
const SLACK_BOT_PORT = 3001;

/**
 * Starts tools/slack-bot (the relay between Slack and the supervisor) on SLACK_BOT_PORT (default
 * 3001), talking to the local supervisor unless CAIPE_URL names another, with account links under
 * the web chat.
 */
async function startSlackBot(
  options: FleetOptions,
  supervisorUrl: string,
  webUrl: string | undefined,
): Promise<FleetMember> {
  options.onStatus?.(SLACK_BOT, "starting");
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    HOST: options.env.HOST ?? "127.0.0.1",
    PORT: slackBotPort(options.env),
    CAIPE_URL: options.env.CAIPE_URL?.trim() || supervisorUrl,
    ...(webUrl && !options.env.CAIPE_UI_BASE_URL?.trim() ? { CAIPE_UI_BASE_URL: webUrl } : {}),
  };
  try {
    const process = await startAgentProcess(join(options.root, "tools", SLACK_BOT), {
      env,
      onLine: (line) => options.onLine?.(SLACK_BOT, line),
    });
    await waitUntilReady(process.url);
    options.onStatus?.(SLACK_BOT, "ready", process.url);
    return { name: SLACK_BOT, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(SLACK_BOT, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
}

function slackBotPort(env: NodeJS.ProcessEnv): string {
  return env.SLACK_BOT_PORT?.trim() || String(SLACK_BOT_PORT);
}

const WEBEX_BOT = "webex-bot";
/** tools/webex-bot's own port (Webex's webhooks, its health and metrics), beside the Slack relay's. */
const WEBEX_BOT_PORT = 3003;

/**
 * Starts tools/webex-bot (the relay between Webex and the supervisor) on WEBEX_BOT_PORT (default
 * 3003), talking to the local supervisor unless CAIPE_URL names another.
 */
async function startWebexBot(options: FleetOptions, supervisorUrl: string): Promise<FleetMember> {
  options.onStatus?.(WEBEX_BOT, "starting");
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    HOST: options.env.HOST ?? "127.0.0.1",
    PORT: options.env.WEBEX_BOT_PORT?.trim() || String(WEBEX_BOT_PORT),
    CAIPE_URL: options.env.CAIPE_URL?.trim() || supervisorUrl,
  };
  try {
    const process = await startAgentProcess(join(options.root, "tools", WEBEX_BOT), {
      env,
      onLine: (line) => options.onLine?.(WEBEX_BOT, line),
    });
    await waitUntilReady(process.url);
    options.onStatus?.(WEBEX_BOT, "ready", process.url);
    return { name: WEBEX_BOT, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(WEBEX_BOT, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
}

const RAG_SERVER = "rag-server";

/** The sources npm start gives the knowledge base when KNOWLEDGE_SOURCES_FILE is unset: one upload source everyone reads. */
export const DEFAULT_KNOWLEDGE_SOURCES = join(import.meta.dirname, "..", "config", "knowledge-sources.yaml");

/**
 * Whether npm start runs Switchboard's knowledge base: when embeddings are configured
 * (EMBEDDINGS_PROVIDER: it searches by meaning), unless ENABLE_RAG=false or RAG_SERVER_URL names
 * another machine's RAG server (CAIPE's, which the supervisor then uses as it is).
 */
export function ragServerWanted(env: NodeJS.ProcessEnv): boolean {
  if (["false", "0", "no", "off"].includes(env.ENABLE_RAG?.trim().toLowerCase() ?? "")) return false;
  if (env.RAG_SERVER_URL?.trim() && !loopbackPort(env.RAG_SERVER_URL)) return false;
  return Boolean(env.EMBEDDINGS_PROVIDER?.trim());
}

/**
 * Starts tools/rag-server on the port of RAG_SERVER_URL when that names this machine, else 9446
 * (CAIPE's), on the embedded PGlite unless KNOWLEDGE_POSTGRES_DSN is set, with KNOWLEDGE_SOURCES_FILE
 * (relative to the repository) or DEFAULT_KNOWLEDGE_SOURCES.
 */
async function startRagServer(options: FleetOptions): Promise<FleetMember> {
  options.onStatus?.(RAG_SERVER, "starting");
  const sources = options.env.KNOWLEDGE_SOURCES_FILE?.trim();
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    HOST: options.env.HOST ?? "127.0.0.1",
    PORT: loopbackPort(options.env.RAG_SERVER_URL) ?? "9446",
    KNOWLEDGE_SOURCES_FILE: sources ? resolve(options.root, sources) : DEFAULT_KNOWLEDGE_SOURCES,
    KNOWLEDGE_PGLITE_DIR: resolve(
      options.root,
      options.env.KNOWLEDGE_PGLITE_DIR?.trim() || ".data/knowledge",
    ),
  };
  try {
    const process = await startAgentProcess(join(options.root, "tools", RAG_SERVER), {
      env,
      onLine: (line) => options.onLine?.(RAG_SERVER, line),
    });
    await waitUntilReady(process.url);
    options.onStatus?.(RAG_SERVER, "ready", process.url);
    return { name: RAG_SERVER, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(RAG_SERVER, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
}

const WEB = "web";

/** Starts tools/web on WEB_PORT (default its contract port, 3000), forwarding to the supervisor. */
async function startWeb(options: FleetOptions, supervisorUrl: string): Promise<FleetMember> {
  options.onStatus?.(WEB, "starting");
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    HOST: options.env.HOST ?? "127.0.0.1",
    PORT: options.env.WEB_PORT?.trim() || String(WEB_UI_PORT),
    SWITCHBOARD_URL: supervisorUrl,
    // The Slack relay's account links are offered on the web chat's origin.
    ...(options.env.SLACK_INTEGRATION_BOT_TOKEN?.trim() && !options.env.SLACK_BOT_URL?.trim()
      ? { SLACK_BOT_URL: `http://127.0.0.1:${slackBotPort(options.env)}` }
      : {}),
  };
  try {
    const process = await startAgentProcess(join(options.root, "tools", WEB), {
      env,
      onLine: (line) => options.onLine?.(WEB, line),
    });
    await waitUntilReady(process.url);
    options.onStatus?.(WEB, "ready", process.url);
    return { name: WEB, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(WEB, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
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

async function start(
  agent: AgentPackage,
  options: FleetOptions,
  port: string | undefined,
): Promise<FleetMember> {
  options.onStatus?.(agent.name, "starting");
  const env: NodeJS.ProcessEnv = { ...options.env, HOST: options.env.HOST ?? "127.0.0.1" };
  delete env.PORT;
  delete env.AGENT_NAME;
  delete env.AGENT_PUBLIC_URL;
  if (port) env.PORT = port;
  try {
    const process = await startAgentProcess(agent.dir, {
      env,
      onLine: (line) => options.onLine?.(agent.name, line),
    });
    await waitUntilReady(process.url);
    options.onStatus?.(agent.name, "ready", process.url);
    return { name: agent.name, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(agent.name, "failed", error instanceof Error ? error.message : String(error));
    throw error;
  }
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

async function waitUntilReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await fetch(`${url}/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url}/ready did not answer 200 within ${timeoutMs} ms`);
}
