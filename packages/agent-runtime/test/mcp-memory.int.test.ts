// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { clientFor, send, stateOf, statusText } from "./a2a.js";
import { CapturedLog, serveDeskAgent } from "./desk-agent.js";

/** The published memory server (npm @modelcontextprotocol/server-memory), run by this Node over stdio. */
function memoryServerScript(): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
    "dist",
    "index.js",
  );
}

describe("a published MCP server (@modelcontextprotocol/server-memory) behind an agent, offline mode", () => {
  const memoryFile = join(scratchDir("mcp-memory"), "memory.jsonl");
  const log = new CapturedLog();
  let agent: RunningAgent;

  beforeAll(async () => {
    // No LLM_PROVIDER: offline mode, where the user calls tools explicitly (/tool {json}).
    agent = await serveDeskAgent(
      {
        DESK_MCP_SERVERS: JSON.stringify({
          memory: {
            command: process.execPath,
            args: [memoryServerScript()],
            env: { MEMORY_FILE_PATH: "${MEMORY_FILE}" },
          },
        }),
        MEMORY_FILE: memoryFile,
      },
      log,
    );
  });
  afterAll(async () => {
    await agent?.close();
  });

  it("lists the server's tools in offline help", async () => {
    const client = await clientFor(agent.url);
    const help = await send(client, "help", `ctx-${randomUUID()}`);
    expect(statusText(help)).toContain("/create_entities");
    expect(statusText(help)).toContain("/read_graph");
  });

  it("asks before create_entities (not read-only), stores the entity once approved, and reads it without asking", async () => {
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    const entity = { name: "payments-api", entityType: "service", observations: ["owned by team Orion"] };
    const asked = await send(client, `/create_entities ${JSON.stringify({ entities: [entity] })}`, contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    // The question shows every argument the server will be sent, whole.
    expect(statusText(asked)).toContain('Run create_entities on the "memory" MCP server.');
    expect(statusText(asked)).toContain('"observations": [\n          "owned by team Orion"');

    const done = await send(client, "yes", contextId, asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(readFileSync(memoryFile, "utf8")).toContain("payments-api");

    const found = await send(client, '/search_nodes {"query":"Orion"}', contextId);
    expect(stateOf(found)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(found)).toContain("payments-api");
    expect(statusText(found)).toContain("owned by team Orion");
  });

  it("declined: nothing is written", async () => {
    const client = await clientFor(agent.url);
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(
      client,
      `/delete_entities ${JSON.stringify({ entityNames: ["payments-api"] })}`,
      contextId,
    );
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    await send(client, "no", contextId, asked.id);
    expect(readFileSync(memoryFile, "utf8")).toContain("payments-api");
  });
});
