// Roster.set against real A2A agents (the runtime's, each on its own port): the roster's set of
// subagents replaced while it runs, as the supervisor does when configured agents come and go.
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { type AgentDefinition, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { freePort } from "@switchboard/vitest-config/ports";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Roster, type SubagentConfig, subagentsPrompt } from "../src/index.js";

const definition = (name: string): AgentDefinition => ({
  name,
  title: name,
  description: `The ${name} agent.`,
  systemPrompt: "You answer briefly.",
  skills: [{ id: name, name, description: `What ${name} does`, tags: [name], examples: [] }],
  tools: () => [],
});

const config = (name: string, url: string, extra: Partial<SubagentConfig> = {}): SubagentConfig => ({
  name,
  prefix: name.toUpperCase(),
  url,
  vendor: name,
  forwardUserToken: false,
  ...extra,
});

describe("Roster.set replaces the subagents of a running roster", () => {
  let llm: ScriptedLlm;
  const agents: Record<string, RunningAgent> = {};
  let betaMoved: RunningAgent;
  let downUrl: string;
  let otherDownUrl: string;
  /** Every URL the roster read a card from, in order: connections made, not mocked. */
  const connects: string[] = [];
  const connect = (url: string, options: Parameters<typeof connectAgent>[1]): Promise<AgentConnection> => {
    connects.push(url);
    return connectAgent(url, options);
  };
  const connectsTo = (url: string) => connects.filter((one) => one === url).length;
  const rosters: Roster[] = [];
  // Healthy agents are checked again only after a minute: every connect a test counts is the roster's
  // own doing; agents that are down are retried every few tens of milliseconds.
  const newRoster = (configs: SubagentConfig[]) => {
    const roster = new Roster(configs, createLogger({ level: "silent" }), {
      connect,
      checkMs: 60_000,
      retryMs: 10,
      maxRetryMs: 20,
    });
    rosters.push(roster);
    return roster;
  };
  const statuses = (roster: Roster) => roster.list().map((agent) => [agent.config.name, agent.status]);

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([], say("Done.")) });
    const serve = (name: string) =>
      serveAgent(definition(name), {
        env: { PORT: "0", HOST: "127.0.0.1", LANGGRAPH_CHECKPOINT_TYPE: "memory", ...llm.env },
        logger: createLogger({ level: "silent" }),
      });
    [agents.alpha, agents.beta, agents.gamma, betaMoved] = await Promise.all([
      serve("alpha"),
      serve("beta"),
      serve("gamma"),
      serve("beta"),
    ]);
    downUrl = `http://127.0.0.1:${await freePort()}`;
    otherDownUrl = `http://127.0.0.1:${await freePort()}`;
  });
  afterEach(() => {
    for (const roster of rosters.splice(0)) roster.stop();
  });
  afterAll(async () => {
    await Promise.all([...Object.values(agents), betaMoved].map((agent) => agent?.close()));
    await llm?.close();
  });

  const url = (name: string) => (agents[name] as RunningAgent).url;

  it("a new agent joins, one left out leaves the list and the prompt, an unchanged one keeps its connection", async () => {
    const roster = newRoster([config("alpha", url("alpha")), config("beta", url("beta"))]);
    roster.start();
    await expect
      .poll(() => statuses(roster))
      .toEqual([
        ["alpha", "available"],
        ["beta", "available"],
      ]);
    const alpha = roster.get("alpha");
    const alphaConnection = alpha?.connection;
    expect(subagentsPrompt(roster)).toContain("- beta: beta: The beta agent.");

    roster.set([config("alpha", url("alpha")), config("gamma", url("gamma"))]);
    // At once: beta is gone, gamma is connecting, alpha is as it was.
    expect(statuses(roster)).toEqual([
      ["alpha", "available"],
      ["gamma", "connecting"],
    ]);
    expect(roster.get("beta")).toBeUndefined();
    expect(subagentsPrompt(roster)).not.toContain("beta");
    expect(roster.report().map((entry) => entry.name)).toEqual(["alpha", "gamma"]);
    await expect.poll(() => roster.get("gamma")?.status).toBe("available");
    expect(roster.get("alpha")).toBe(alpha);
    expect(roster.get("alpha")?.connection).toBe(alphaConnection);
    expect(connectsTo(url("alpha"))).toBe(1);
    expect(subagentsPrompt(roster)).toContain("- gamma: gamma: The gamma agent.");
  });

  it("an agent whose URL changed is connected anew at the new URL", async () => {
    const roster = newRoster([config("beta", url("beta"))]);
    roster.start();
    await expect.poll(() => roster.get("beta")?.connection?.baseUrl).toBe(url("beta"));
    const before = roster.get("beta");

    roster.set([config("beta", betaMoved.url)]);
    expect(roster.get("beta")).not.toBe(before);
    await expect.poll(() => roster.get("beta")?.connection?.baseUrl).toBe(betaMoved.url);
    expect(roster.get("beta")?.status).toBe("available");
  });

  it("a vendor changed applies from the next call, on the same connection", () => {
    const roster = newRoster([config("alpha", url("alpha"))]);
    const alpha = roster.get("alpha");
    roster.set([config("alpha", url("alpha"), { vendor: "github" })]);
    expect(roster.get("alpha")).toBe(alpha);
    expect(roster.get("alpha")?.config.vendor).toBe("github");
  });

  it("an agent left out stops being watched: a down one is retried no more", async () => {
    const roster = newRoster([config("down", downUrl), config("other", otherDownUrl)]);
    roster.start();
    await expect.poll(() => connectsTo(downUrl)).toBeGreaterThanOrEqual(3);
    roster.set([config("other", otherDownUrl)]);
    const left = connectsTo(downUrl);
    // The agent still watched is retried several times over: the one that left, not once more.
    const otherNow = connectsTo(otherDownUrl);
    await expect.poll(() => connectsTo(otherDownUrl)).toBeGreaterThanOrEqual(otherNow + 5);
    expect(connectsTo(downUrl)).toBe(left);
    expect(roster.list().map((agent) => agent.config.name)).toEqual(["other"]);
  });

  it("a card must carry the name configured for it (cardName), and a changed cardName is checked anew", async () => {
    const roster = newRoster([config("b", url("beta"), { cardName: "beta" })]);
    roster.start();
    await expect.poll(() => roster.get("b")?.status).toBe("available");

    roster.set([config("b", url("beta"), { cardName: "gamma" })]);
    await expect.poll(() => roster.get("b")?.status).toBe("refused");
    expect(roster.get("b")?.reason).toContain('its card is named "beta"');
    expect(roster.get("b")?.connection).toBeUndefined();
  });

  it("set before start takes effect when it starts, and after stop connects nothing", async () => {
    const roster = newRoster([config("alpha", url("alpha"))]);
    roster.set([config("gamma", url("gamma"))]);
    const before = connectsTo(url("gamma"));
    roster.start();
    await expect.poll(() => statuses(roster)).toEqual([["gamma", "available"]]);
    expect(connectsTo(url("gamma"))).toBe(before + 1);
    roster.stop();
    const alphaBefore = connectsTo(url("alpha"));
    roster.set([config("alpha", url("alpha"))]);
    expect(roster.get("alpha")?.status).toBe("connecting");
    expect(connectsTo(url("alpha"))).toBe(alphaBefore);
  });
});
