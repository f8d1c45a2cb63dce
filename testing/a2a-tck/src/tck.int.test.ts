import { join } from "node:path";
import { type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { notesAgent } from "@switchboard-testing/agent-conformance";
import { freePort } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { ensurePythonEnv } from "@switchboard-testing/test-python";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_FAULTS, WAITS_FOR_WORKING_AFTER_BLOCKING_SEND } from "./kit-faults.js";
import { CATEGORIES, type KitTest, runKit } from "./run-kit.js";

const failed = (test: KitTest) => test.outcome === "failed" || test.outcome === "error";

describe("the A2A TCK over gRPC, against a served Switchboard agent", () => {
  let llm: ScriptedLlm;
  let agent: RunningAgent;
  let grpcPort: number;
  const results: KitTest[] = [];

  beforeAll(async () => {
    const { python } = await ensurePythonEnv({ name: "tck" });
    llm = await startScriptedLlm({ script: () => say("Hello from a Switchboard agent.") });
    grpcPort = await freePort();
    // The notes agent as any agent is served (serve.ts), its gRPC port on the card as an http URL with
    // no path, as A2A 1.0 writes an interface's url (the kit both checks that and connects to it).
    // The kit's push-notification cases post to its own receiver on localhost, hence private webhooks.
    agent = await serveAgent(notesAgent([]) as never, {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        HOST: "127.0.0.1",
        AGENT_NAME: "notes",
        LANGGRAPH_CHECKPOINT_TYPE: "memory",
        A2A_GRPC_PORT: String(grpcPort),
        A2A_GRPC_PUBLIC_ADDRESS: `http://localhost:${grpcPort}`,
        PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS: "true",
        ...llm.env,
      },
      logger: createLogger({ level: "silent" }),
    });
    const reports = scratchDir("a2a-tck");
    // One category after the other: the list cases count the agent's tasks.
    for (const [name, category] of Object.entries(CATEGORIES)) {
      results.push(
        ...(await runKit({
          python,
          sutUrl: `http://localhost:${new URL(agent.url).port}`,
          category,
          deselect: WAITS_FOR_WORKING_AFTER_BLOCKING_SEND,
          reportFile: join(reports, `${name}.json`),
          timeoutMs: 150_000,
        })),
      );
    }
  });
  afterAll(async () => {
    // The run's tally, for the README's table (pytest's own output is not shown).
    const tally: Record<string, number> = {};
    for (const test of results) tally[test.outcome] = (tally[test.outcome] ?? 0) + 1;
    const faults = results.filter((test) => failed(test) && test.nodeid in KIT_FAULTS).length;
    process.stderr.write(
      `[a2a-tck] over gRPC: ${JSON.stringify(tally)}, ${faults} of the failures the kit's own (kit-faults.ts), ${WAITS_FOR_WORKING_AFTER_BLOCKING_SEND.length} deselected\n`,
    );
    await agent?.close();
    await llm?.close();
  });

  it("runs the kit's mandatory and capability cases over gRPC, the card naming gRPC where it serves it", () => {
    const card = results.filter((test) => test.outcome === "passed");
    expect(card.length, "the kit passed too few tests: did it run?").toBeGreaterThanOrEqual(60);
    // The kit's own sign that its client is not JSON-RPC's: JSON-RPC's cases skip for it.
    const jsonRpcOnly = results.find((test) =>
      /test_jsonrpc_specific_method_naming|jsonrpc_only/.test(test.nodeid),
    );
    if (jsonRpcOnly) expect(jsonRpcOnly.outcome).toBe("skipped");
  });

  it("fails no test but the kit's own faults, each named with its reason", () => {
    const unexplained = results
      .filter((test) => failed(test) && !(test.nodeid in KIT_FAULTS))
      .map((test) => `${test.nodeid}: ${test.why.slice(0, 600)}`);
    // Joined, so a failure prints each test and why in full.
    expect(unexplained.join("\n\n")).toBe("");
  });

  it("still runs every test named as the kit's fault (the list names real tests)", () => {
    const ran = new Set(results.map((test) => test.nodeid));
    expect(Object.keys(KIT_FAULTS).filter((nodeid) => !ran.has(nodeid))).toEqual([]);
  });
});
