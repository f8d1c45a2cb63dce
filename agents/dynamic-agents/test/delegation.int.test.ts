import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { connectAgent } from "@switchboard/a2a-client";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeOpenMeteo, startFakeOpenMeteo } from "@switchboard-testing/fake-vendors";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  type CaipeEnv,
  type CaipeProcess,
  ensureCaipeEnv,
  locateCaipe,
  startCaipeProcess,
} from "@switchboard-testing/test-caipe";
import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { type McpHttpServer, startMcpHttpServer } from "@switchboard-testing/test-mcp";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { caipeAppConfig, caipeGitDir } from "./caipe-app-config.js";
import { hostPackageDir, startHost, writeConfig } from "./host-process.js";

const gitDir = caipeGitDir();
const caipe = locateCaipe({ ...process.env, ...(gitDir ? { CAIPE_GIT_DIR: gitDir } : {}) });
const agentsDir = join(hostPackageDir, "..");

/** The newest assistant text in a request: what CAIPE's structured-output call restates as JSON. */
function lastAssistantText(request: ChatCompletionRequest): string {
  for (const message of [...request.messages].reverse()) {
    if (message.role === "assistant" && message.content) return messageText(message.content);
  }
  return "";
}

/** A weather MCP server (official SDK) for CAIPE's weather agent: every city is 18°C and raining. */
function weatherServer(calls: string[]): McpServer {
  const mcp = new McpServer({ name: "test-weather", version: "1.0.0" });
  mcp.registerTool(
    "get_current_weather",
    { description: "Current weather conditions for a city", inputSchema: { city: z.string() } },
    async ({ city }) => {
      calls.push(city);
      return { content: [{ type: "text", text: `${city}: 18°C, light rain` }] };
    },
  );
  return mcp;
}

describe.skipIf(!gitDir || !caipe.available)(
  `a configured agent delegating to a packaged Switchboard agent and to CAIPE's Python weather agent${caipe.available ? "" : ` (skipped: ${caipe.reason})`}`,
  () => {
    const dir = scratchDir("dynamic-agents-delegation");
    const dbName = uniqueDbName("dynamic_hops");
    const cities: string[] = [];
    let env: CaipeEnv;
    let llm: ScriptedLlm;
    let meteo: FakeOpenMeteo;
    let weatherMcp: McpHttpServer;
    let pythonWeather: CaipeProcess;
    let packaged: AgentProcess;
    let host: AgentProcess;

    beforeAll(async () => {
      env = await ensureCaipeEnv(caipe as Extract<typeof caipe, { available: true }>);
      llm = await startScriptedLlm({
        script: rules(
          [
            // CAIPE's agents end each turn with a structured-output call restating the answer as JSON.
            {
              test: (request) => request.response_format !== undefined,
              reply: (request) =>
                say(JSON.stringify({ status: "completed", message: lastAssistantText(request) })),
            },
            // CAIPE's weather agent (offered get_current_weather).
            {
              toolOffered: "get_current_weather",
              lastUser: /weather in (\w+)/,
              reply: (_r, { match }) => callTool("get_current_weather", { city: match?.[1] }),
            },
            { afterTool: "get_current_weather", reply: replyFromToolResult() },
            // Switchboard's weather agent (offered current_weather).
            {
              toolOffered: "current_weather",
              lastUser: /weather in (\w+)/,
              reply: (_r, { match }) => callTool("current_weather", { place: match?.[1] }),
            },
            { afterTool: "current_weather", reply: replyFromToolResult() },
            // The configured agent: "<subagent>: …" goes to that subagent, its answer is the answer.
            ...routeByAgentPrefix(),
          ],
          say("ok"),
        ),
      });
      meteo = await startFakeOpenMeteo();
      weatherMcp = await startMcpHttpServer({ create: () => weatherServer(cities) });
      const port = await freePort();
      // As CAIPE's image runs it: `python -m agent_weather` in the agent's folder.
      pythonWeather = await startCaipeProcess({
        python: env.python.weather,
        module: "agent_weather",
        args: ["--host", "127.0.0.1", "--port", String(port)],
        cwd: join(env.sourceDir, "ai_platform_engineering", "agents", "weather"),
        port,
        label: "CAIPE weather agent",
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PYTHONPATH: env.sourceDir,
          TIKTOKEN_CACHE_DIR: env.tiktokenCacheDir,
          LLM_PROVIDER: "openai",
          OPENAI_API_KEY: llm.env.OPENAI_API_KEY,
          OPENAI_ENDPOINT: llm.url,
          OPENAI_MODEL_NAME: llm.env.OPENAI_MODEL_NAME,
          WEATHER_MCP_MODE: "http",
          WEATHER_MCP_API_URL: weatherMcp.url,
        },
      });
      // Switchboard's packaged weather agent on its fake vendor, named for this test.
      packaged = await startAgentProcess(join(agentsDir, "weather"), {
        env: {
          ...testMongoEnv(dbName),
          ...llm.env,
          AGENT_NAME: "switchboard-weather",
          WEATHER_API_URL: meteo.forecast.url,
          WEATHER_GEOCODING_API_URL: meteo.geocoding.url,
        },
      });
      const configFile = join(dir, "app-config.yaml");
      writeConfig(
        configFile,
        caipeAppConfig(gitDir as string, {
          agents: [
            {
              id: "forecaster",
              name: "Forecaster",
              description: "Asks both weather agents",
              system_prompt: "You compare forecasts.",
              model_id: "gpt-4o-mini",
              model_provider: "openai",
              visibility: "global",
              allowed_tools: {},
              subagents: [
                {
                  name: "switchboard-weather",
                  description: "Switchboard's weather agent",
                  url: packaged.url,
                },
                { name: "weather", description: "CAIPE's weather agent", url: pythonWeather.url },
                // Configured as one agent, its card says it is another: never called.
                { name: "liar", description: "Forecasts, it says", url: packaged.url },
              ],
              enabled: true,
            },
          ],
        }),
      );
      host = await startHost({
        ...testMongoEnv(dbName),
        ...llm.env,
        APP_CONFIG_FILE: configFile,
        GITHUB_MCP_URL: weatherMcp.url,
        ARGOCD_MCP_URL: weatherMcp.url,
        RAG_SERVER_MCP_URL: weatherMcp.url,
      });
    });

    afterAll(async () => {
      await host?.kill("SIGTERM");
      await packaged?.kill("SIGTERM");
      await pythonWeather?.stop();
      await Promise.all([llm?.close(), meteo?.close(), weatherMcp?.close()]);
    });

    it("keeps one conversation across the configured agent, Switchboard's agent and CAIPE's", async () => {
      const forecaster = await connectAgent(`${host.url}/agents/forecaster`);
      // A UUID, as CAIPE takes it (its agents read the context as a UUID).
      const contextId = randomUUID();
      const ours = await forecaster.send({
        text: "forward to switchboard-weather: what is the weather in Paris?",
        contextId,
      });
      expect(ours.state, host.logs().slice(-3000)).toBe("completed");
      expect(ours.text).toContain("Paris");
      const theirs = await forecaster.send({
        text: "forward to weather: what is the weather in Oslo?",
        contextId,
      });
      expect(theirs.state, pythonWeather.logs().slice(-3000)).toBe("completed");
      expect(theirs.text).toContain("Oslo: 18°C, light rain");
      expect(cities).toEqual(["Oslo"]);

      // One contextId in all three: the host's agent's tasks, the packaged agent's tasks, CAIPE's log.
      const mongo = await MongoClient.connect(testMongoUri());
      try {
        const db = mongo.db(dbName);
        expect(await db.collection("tasks_forecaster").countDocuments({ contextId })).toBe(2);
        expect(await db.collection("tasks_switchboard-weather").countDocuments({ contextId })).toBe(1);
      } finally {
        await mongo.close();
      }
      expect(pythonWeather.logs()).toContain(contextId);
    });

    it("never calls a subagent whose card names another agent than it was configured as", async () => {
      const forecaster = await connectAgent(`${host.url}/agents/forecaster`);
      const contextId = randomUUID();
      const answer = await forecaster.send({
        text: "forward to liar: what is the weather in Paris?",
        contextId,
      });
      expect(answer.state).toBe("completed");
      expect(answer.text).toMatch(/liar/);
      expect(answer.text).not.toContain("Paris");
      const mongo = await MongoClient.connect(testMongoUri());
      try {
        expect(
          await mongo.db(dbName).collection("tasks_switchboard-weather").countDocuments({ contextId }),
        ).toBe(0);
      } finally {
        await mongo.close();
      }
      expect(host.logs()).toContain('its card is named \\"switchboard-weather\\"');
    });
  },
);
