import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { type AgentDefinition, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { SlowSaver } from "@switchboard-testing/test-agents";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { supervisorAgent } from "../src/agent.js";

/** A subagent with nothing but its model: it answers how many shelves there are. */
const shelves: AgentDefinition = {
  name: "jira",
  title: "Shelves",
  description: "Counts shelves.",
  systemPrompt: "You count shelves.",
  skills: [
    { id: "count", name: "Count", description: "Counts shelves", tags: ["shelves"], examples: ["count"] },
  ],
  tools: () => [],
};

// The supervisor's graph stores each step while the next runs; a hop is an action, so it goes out
// only once the step that asked for it is stored (a crash cannot leave a hop the conversation lacks).
describe("the supervisor's hop and its writes", () => {
  const saver = new SlowSaver();
  /** What the supervisor had stored when the subagent was asked. */
  const heard: string[][] = [];
  const quiet = createLogger({ level: "silent" });
  let llm: ScriptedLlm;
  const agents: RunningAgent[] = [];

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          ...routeByAgentPrefix(),
          {
            lastUser: /count the shelves/,
            reply: () => {
              heard.push([...saver.stored]);
              return say("three shelves");
            },
          },
        ],
        say("?"),
      ),
    });
    const common = {
      PORT: "0",
      HOST: "127.0.0.1",
      ...testMongoEnv(uniqueDbName("hop_barrier")),
      ...llm.env,
      LANGGRAPH_STORE_TYPE: "none",
    };
    const subagent = await serveAgent(shelves, { env: { ...common, AGENT_NAME: "jira" }, logger: quiet });
    agents.push(subagent);
    agents.push(
      await serveAgent(supervisorAgent, {
        env: { ...common, ENABLE_JIRA: "true", JIRA_AGENT_URL: subagent.url },
        checkpointer: saver,
        logger: quiet,
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await llm.close();
  });

  it("asks the subagent only once the call that asked is stored", async () => {
    const connection = await connectAgent(agents[1]?.url ?? "");
    const result = await connection.send({ text: "jira: count the shelves", contextId: randomUUID() });
    expect(result.state).toBe("completed");
    expect(result.text).toContain("three shelves");
    expect(heard).toHaveLength(1);
    expect(heard[0]).toContain("writes calling call_agent");
  });
});
