// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server settings refer to variables as ${VAR}, on purpose.
import { connectAgent } from "@switchboard/a2a-client";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import {
  createDeskServer,
  DeskStore,
  type McpSseServer,
  startMcpSseServer,
} from "@switchboard-testing/test-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMcpServer, type SharedMcpServer } from "../src/mcp/shared-server.js";
import { mountAgent } from "../src/mount.js";
import { CapturedLog, deskAgent, startObedientLlm, stateFile } from "./desk-agent.js";
import { startTestHost, type TestHost } from "./mount-host.js";

const TOKEN = "sse-trace-secret-40d2c7";
const AGENTS = ["triage", "clerk"] as const;

// Two agents in one process (its OpenTelemetry SDK started by the first), each running a turn that
// calls a tool of one shared MCP server: every span says which agent it was for.
describe("agents mounted in one process, told apart in traces", () => {
  const log = new CapturedLog();
  let receiver: OtlpReceiver;
  let sse: McpSseServer;
  let llm: ScriptedLlm;
  let desk: SharedMcpServer;
  let host: TestHost;

  beforeAll(async () => {
    const store = new DeskStore(stateFile());
    [receiver, llm, sse] = await Promise.all([
      startOtlpReceiver(),
      startObedientLlm(),
      startMcpSseServer({ create: (credential) => createDeskServer({ store, credential }), token: TOKEN }),
    ]);
    // The OpenTelemetry SDK reads its exporter settings from the process's own env (a host's, here the
    // test worker's, a process of its own), not from the env an agent is given.
    Object.assign(process.env, receiver.env);
    const env = { DESK_TOKEN: TOKEN };
    desk = await connectMcpServer(
      {
        name: "desk",
        config: { transport: "sse", url: sse.url, headers: { Authorization: "Bearer ${DESK_TOKEN}" } },
      },
      { env, logger: log.logger, timeoutMs: 5_000 },
    );
    host = await startTestHost();
    for (const name of AGENTS) {
      const definition = { ...deskAgent, name, title: name, tools: () => desk.tools({ prefix: "desk_" }) };
      const agent = await mountAgent(definition, {
        env: {
          LANGGRAPH_CHECKPOINT_TYPE: "memory",
          LANGGRAPH_STORE_TYPE: "none",
          ...llm.env,
          ...receiver.env,
        },
        logger: log.logger,
        publicUrl: host.urlOf(name),
        serviceName: "switchboard-test-host",
      });
      host.agents.set(name, agent);
    }
    for (const name of AGENTS) {
      const connection = await connectAgent(host.urlOf(name));
      expect((await connection.send({ text: "call desk_list_tickets {}" })).state).toBe("completed");
    }
    // Each turn's tool call, and the request it came in on, ended and exported. (Not settle(): the
    // receiver's own requests are traced in this process, so spans never stop arriving.)
    await receiver.waitFor((spans) =>
      AGENTS.every((name) => {
        const turn = spans.find((span) => span.name === `invoke_agent ${name}`);
        return (
          spans.some((span) => span.spanId === turn?.parentSpanId) &&
          spans.some((span) => span.traceId === turn?.traceId && span.name.startsWith("execute_tool"))
        );
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await desk?.close();
    await Promise.all([sse?.close(), llm?.close(), receiver?.close()]);
    for (const key of Object.keys(receiver?.env ?? {})) delete process.env[key];
  });

  it("names the agent on each turn, its model, tool and checkpoint calls, and the request it came in on", () => {
    for (const name of AGENTS) {
      const turn = receiver.spans.find((span) => span.name === `invoke_agent ${name}`);
      expect(turn?.attributes["gen_ai.agent.name"], name).toBe(name);
      const inTurn = receiver.spans.filter((span) => span.traceId === turn?.traceId);
      const chats = inTurn.filter((span) => span.name.startsWith("chat "));
      const tools = inTurn.filter((span) => span.name === "execute_tool desk_list_tickets");
      const checkpoints = inTurn.filter((span) => span.name.startsWith("checkpoint "));
      expect(chats.length).toBeGreaterThan(0);
      expect(tools).toHaveLength(1);
      expect(checkpoints.length).toBeGreaterThan(0);
      for (const span of [...chats, ...tools, ...checkpoints]) {
        expect(span.attributes["gen_ai.agent.name"], span.name).toBe(name);
      }
      // The HTTP request the turn came in on (the host's server span) names the agent too.
      const request = inTurn.find((span) => span.kind === 2 && span.spanId === turn?.parentSpanId);
      expect(request?.attributes["gen_ai.agent.name"]).toBe(name);
    }
  });

  it("exports under the host's service name, without the MCP server's credential", () => {
    const services = new Set(receiver.spans.map((span) => span.service));
    expect([...services]).toEqual(["switchboard-test-host"]);
    // Requests to what is not an agent (the host's own paths) name none.
    const named = receiver.spans.filter((span) => span.kind === 2 && span.attributes["gen_ai.agent.name"]);
    expect(new Set(named.map((span) => span.attributes["gen_ai.agent.name"]))).toEqual(new Set(AGENTS));
    expect(receiver.bodies.join("\n")).not.toContain(TOKEN);
  });
});
