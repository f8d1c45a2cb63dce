import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { type CaipeEnv, type CaipeProcess, startCaipeProcess } from "../src/index.js";

/** CAIPE's supervisor imports for a minute or more on a busy 2-core machine. */
const START_TIMEOUT_MS = 600_000;

/** What a fleet is to the bench: its two A2A endpoints and the processes behind each. */
export interface Fleet {
  name: string;
  /** The Jira agent's base URL and the pids that serve a direct turn. */
  jira: { url: string; pids: number[]; processes: string };
  /** The supervisor's base URL and its own pids (a routed turn uses these and the Jira agent's). */
  supervisor: { url: string; pids: number[] };
  /** Its MongoDB database. */
  dbName: string;
  logs(): string;
  stop(): Promise<void>;
}

export interface Shared {
  mongoUri: string;
  /** The scripted model's settings for Switchboard's LLM factory (LLM_PROVIDER=openai and friends). */
  llmEnv: Record<string, string>;
  llmUrl: string;
  jira: { url: string; email: string; token: string };
}

/**
 * CAIPE's Jira agent and supervisor from its own tree, configured only by env as its Helm chart and
 * docker-compose do: the Jira agent (`python -m agent_jira`) reaching Jira through CAIPE's own MCP
 * server (`python -m mcp_jira`, MCP_MODE=http, as deployed beside it) pointed at the fake Jira; the
 * supervisor (`python -m ai_platform_engineering.multi_agents platform-engineer`) with the Jira agent
 * as its one remote agent; both checkpointing to MongoDB (LANGGRAPH_CHECKPOINT_TYPE=mongodb).
 */
export async function startCaipeFleet(env: CaipeEnv, shared: Shared, dbName: string): Promise<Fleet> {
  const started: CaipeProcess[] = [];
  const stop = async () => {
    for (const process of started.reverse()) await process.stop();
  };
  const base = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PYTHONPATH: env.sourceDir,
    TIKTOKEN_CACHE_DIR: env.tiktokenCacheDir,
    LLM_PROVIDER: "openai",
    OPENAI_API_KEY: shared.llmEnv.OPENAI_API_KEY,
    OPENAI_ENDPOINT: shared.llmUrl,
    OPENAI_MODEL_NAME: shared.llmEnv.OPENAI_MODEL_NAME,
    LANGGRAPH_CHECKPOINT_TYPE: "mongodb",
    LANGGRAPH_CHECKPOINT_MONGODB_URI: shared.mongoUri,
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
  };
  const atlassian = {
    ATLASSIAN_API_URL: shared.jira.url,
    ATLASSIAN_EMAIL: shared.jira.email,
    ATLASSIAN_TOKEN: shared.jira.token,
  };
  try {
    const jiraDir = join(env.sourceDir, "ai_platform_engineering", "agents", "jira");
    const mcpPort = await freePort();
    const mcp = await startCaipeProcess({
      python: env.python.jira,
      module: "mcp_jira",
      args: [],
      cwd: join(jiraDir, "mcp"),
      port: mcpPort,
      label: "CAIPE Jira MCP server",
      startTimeoutMs: START_TIMEOUT_MS,
      listeningPath: "/mcp",
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        MCP_MODE: "http",
        MCP_HOST: "127.0.0.1",
        MCP_PORT: String(mcpPort),
        ...atlassian,
      },
    });
    started.push(mcp);
    const jiraPort = await freePort();
    const jira = await startCaipeProcess({
      python: env.python.jira,
      module: "agent_jira",
      args: ["--host", "127.0.0.1", "--port", String(jiraPort)],
      cwd: jiraDir,
      port: jiraPort,
      label: "CAIPE Jira agent",
      startTimeoutMs: START_TIMEOUT_MS,
      env: {
        ...base,
        ...atlassian,
        JIRA_MCP_MODE: "http",
        JIRA_MCP_HOST: "127.0.0.1",
        JIRA_MCP_PORT: String(mcpPort),
      },
    });
    started.push(jira);
    const supervisorPort = await freePort();
    const supervisor = await startCaipeProcess({
      python: env.python.supervisor,
      module: "ai_platform_engineering.multi_agents",
      args: ["--host", "127.0.0.1", "--port", String(supervisorPort), "platform-engineer"],
      cwd: env.sourceDir,
      port: supervisorPort,
      label: "CAIPE supervisor",
      startTimeoutMs: START_TIMEOUT_MS,
      env: {
        ...base,
        A2A_HOST: "127.0.0.1",
        A2A_PORT: String(supervisorPort),
        ENABLE_JIRA: "true",
        DISTRIBUTED_AGENTS: "jira",
        JIRA_AGENT_HOST: "127.0.0.1",
        JIRA_AGENT_PORT: String(jiraPort),
      },
    });
    started.push(supervisor);
    return {
      name: "CAIPE 0.5.x",
      jira: { url: jira.url, pids: [jira.pid, mcp.pid], processes: "agent + its MCP server" },
      supervisor: { url: supervisor.url, pids: [supervisor.pid] },
      dbName,
      logs: () =>
        [mcp, jira, supervisor]
          .map((p, i) => `--- ${["mcp", "jira", "supervisor"][i]}\n${p.logs().slice(-3000)}`)
          .join("\n"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Switchboard's Jira agent and supervisor, as the fleet starts them (dist, shipped node options). */
export async function startSwitchboardFleet(
  agentsDir: string,
  shared: Shared,
  dbName: string,
): Promise<Fleet> {
  const started: AgentProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((agent) => agent.kill("SIGTERM")));
  };
  const base = {
    MONGODB_URI: shared.mongoUri,
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
    ...shared.llmEnv,
  };
  try {
    const jira = await startAgentProcess(join(agentsDir, "jira"), {
      env: {
        ...base,
        ATLASSIAN_API_URL: shared.jira.url,
        ATLASSIAN_EMAIL: shared.jira.email,
        ATLASSIAN_TOKEN: shared.jira.token,
      },
    });
    started.push(jira);
    const supervisor = await startAgentProcess(join(agentsDir, "supervisor"), {
      env: { ...base, ENABLE_JIRA: "true", JIRA_AGENT_URL: jira.url },
    });
    started.push(supervisor);
    return {
      name: "Switchboard",
      jira: { url: jira.url, pids: [jira.pid], processes: "agent" },
      supervisor: { url: supervisor.url, pids: [supervisor.pid] },
      dbName,
      logs: () => `--- jira\n${jira.logs().slice(-3000)}\n--- supervisor\n${supervisor.logs().slice(-3000)}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
