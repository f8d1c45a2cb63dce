import { Writable } from "node:stream";
import { createLogger } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { buildCheckpointer, resolveCheckpointer } from "./checkpointer-build.js";
import { openStore } from "./store.js";

/** A logger writing to memory, and its raw lines (as a log store would receive them). */
function capture(base?: Record<string, unknown>) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: "info", ...(base ? { base } : {}), destination });
  return { logger, lines: () => chunks.join("").split("\n").filter(Boolean) };
}

const agentKeys = (line: string) => line.split('"agent":').length - 1;

describe("the checkpointer's and the store's start-up lines", () => {
  it("name the agent once, with the agent's own logger and with a logger that does not name it", async () => {
    for (const base of [{ agent: "jira" }, undefined]) {
      const { logger, lines } = capture(base);
      const env = { LANGGRAPH_CHECKPOINT_TYPE: "memory", LANGGRAPH_STORE_TYPE: "none" };
      await buildCheckpointer(resolveCheckpointer({ env, agentName: "jira", logger }));
      await openStore({ env, agentName: "jira", logger });
      expect(lines()).toHaveLength(2);
      for (const line of lines()) {
        // JSON.parse keeps the last of two equal keys; a store with strict parsing refuses the line.
        expect(agentKeys(line), line).toBe(1);
        expect(JSON.parse(line)).toMatchObject({ agent: "jira" });
      }
    }
  });
});
