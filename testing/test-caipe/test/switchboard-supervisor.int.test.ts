import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  recallUserMessages,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CaipeEnv,
  type CaipeProcess,
  ensureCaipeEnv,
  locateCaipe,
  startCaipeProcess,
} from "../src/index.js";
import { startWeatherMcp, type WeatherMcp, weatherIn } from "./weather-mcp.js";

const root = join(import.meta.dirname, "..", "..", "..");
const caipe = locateCaipe();

/** The newest assistant text in a request: what CAIPE's structured-output call restates as JSON. */
function lastAssistantText(request: ChatCompletionRequest): string {
  for (const message of [...request.messages].reverse()) {
    if (message.role === "assistant" && message.content) return messageText(message.content);
  }
  return "";
}

/** The requests CAIPE's weather agent's model got (it alone is offered the weather tool). */
function weatherAgentRequests(llm: ScriptedLlm): ChatCompletionRequest[] {
  return llm.requests.filter((request) =>
    (request.tools ?? []).some((tool) => tool.function.name === "get_current_weather"),
  );
}

describe.skipIf(!caipe.available)(
  `Switchboard's supervisor routing to CAIPE's Python weather agent${caipe.available ? "" : ` (skipped: ${caipe.reason})`}`,
  () => {
    let env: CaipeEnv;
    let llm: ScriptedLlm;
    let mcp: WeatherMcp;
    let otlp: OtlpReceiver;
    let weather: CaipeProcess;
    let supervisor: AgentProcess;

    beforeAll(async () => {
      env = await ensureCaipeEnv(caipe);
      llm = await startScriptedLlm({
        script: rules(
          [
            // CAIPE's agents end each turn with a structured-output call (response_format: its
            // ResponseFormat schema); the model restates its answer as that JSON.
            {
              test: (request) => request.response_format !== undefined,
              reply: (request) =>
                say(JSON.stringify({ status: "completed", message: lastAssistantText(request) })),
            },
            // CAIPE's weather agent.
            { toolOffered: "get_current_weather", lastUser: /what did I ask/, reply: recallUserMessages() },
            {
              toolOffered: "get_current_weather",
              lastUser: /weather in (\w+)/,
              reply: (_r, { match }) => callTool("get_current_weather", { city: match?.[1] }),
            },
            { afterTool: "get_current_weather", reply: replyFromToolResult() },
            // Switchboard's supervisor: "weather: …" goes to the weather agent.
            ...routeByAgentPrefix(),
          ],
          say("ok"),
        ),
      });
      mcp = await startWeatherMcp();
      otlp = await startOtlpReceiver();
      const port = await freePort();
      // As CAIPE's image runs it: `python -m agent_weather` in the agent's folder, PYTHONPATH the tree.
      weather = await startCaipeProcess({
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
          WEATHER_MCP_API_URL: mcp.url,
          // Tracing on, as a CAIPE user with Langfuse runs it (Langfuse itself unreachable here): only
          // then does the agent read metadata.trace_id.
          ENABLE_TRACING: "true",
          LANGFUSE_PUBLIC_KEY: "pk-lf-test",
          LANGFUSE_SECRET_KEY: "sk-lf-test",
          LANGFUSE_HOST: "http://127.0.0.1:9",
        },
      });
      supervisor = await startAgentProcess(join(root, "agents", "supervisor"), {
        env: {
          ...testMongoEnv(uniqueDbName("caipe-supervisor")),
          ...llm.env,
          ...otlp.env,
          ENABLE_WEATHER: "true",
          WEATHER_AGENT_URL: weather.url,
        },
      });
    });

    afterAll(async () => {
      await supervisor?.kill("SIGTERM");
      await weather?.stop();
      await Promise.all([llm?.close(), mcp?.close(), otlp?.close()]);
    });

    it("routes two turns of one conversation to the weather agent, whose model sees the first in the second", async () => {
      const connection = await connectAgent(supervisor.url);
      const contextId = randomUUID();
      const first = await connection.send({ text: "weather: what is the weather in Paris?", contextId });
      expect(first.state, weather.logs().slice(-4000)).toBe("completed");
      expect(first.text).toContain(weatherIn("Paris"));
      expect(mcp.calls).toEqual(["Paris"]);

      const second = await connection.send({ text: "weather: what did I ask you before?", contextId });
      expect(second.state).toBe("completed");
      // CAIPE's agent kept the conversation: its model got the first question with the second (each
      // as CAIPE sends it, followed by its "[Current date: …]" line).
      expect(second.text).toMatch(
        /You asked: what is the weather in Paris\?[^|]*\| what did I ask you before\?/,
      );
      const asked = weatherAgentRequests(llm)
        .at(-1)
        ?.messages.filter((message) => message.role === "user")
        .map((message) => messageText(message.content));
      expect(asked).toEqual([
        expect.stringMatching(/^what is the weather in Paris\?/),
        expect.stringMatching(/^what did I ask you before\?/),
      ]);
    });

    it("names its trace to the weather agent as CAIPE's agents read it, so the agent joins it", async () => {
      const connection = await connectAgent(supervisor.url);
      const result = await connection.send({
        text: "weather: what is the weather in Oslo?",
        contextId: randomUUID(),
      });
      expect(result.text).toContain(weatherIn("Oslo"));
      // CAIPE's agent logs the trace id it took from the message (metadata.trace_id, tracing on).
      const taken = [...weather.logs().matchAll(/using SUPERVISOR trace_id: (\S+) for context_id/g)].map(
        (m) => m[1],
      );
      const traceId = taken.at(-1) ?? "";
      expect(traceId, weather.logs().slice(-4000)).toMatch(/^[0-9a-f]{32}$/);
      // It is the trace of the supervisor's turn, as exported to the project's OTLP receiver.
      await otlp.waitFor(
        (spans) => spans.some((span) => span.traceId === traceId && span.service.includes("supervisor")),
        20_000,
      );
    });
  },
);
