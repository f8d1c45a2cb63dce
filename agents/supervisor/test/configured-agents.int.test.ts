// The supervisor joins the agents a dynamic-agents host lists (DYNAMIC_AGENTS_URL): a small real
// host here, serving a listing the test changes and, under /agents/<id>/, real agents served by the
// runtime; the supervisor a real process. Agents appear and leave without a restart; a listing that
// lies, breaks or goes away changes nothing it should not.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connectAgent } from "@switchboard/a2a-client";
import { type AgentDefinition, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { type AgentProcess, freePort } from "@switchboard-testing/test-agents";
import {
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConfiguredHost, startConfiguredHost } from "./configured-host.js";
import { startAgent } from "./fleet.js";

const agentDefinition = (name: string, prompt: string): AgentDefinition => ({
  name,
  title: name,
  description: `Does ${name} things.`,
  systemPrompt: prompt,
  skills: [{ id: name, name, description: `${name} work`, tags: [name], examples: [] }],
  tools: () => [],
});

const script = rules(
  [
    ...routeByAgentPrefix(),
    // Each agent's model answers by its own system prompt (the supervisor's never holds these words).
    { system: "PROMPT-REVIEWER", reply: say("Reviewer here: the change looks right.") },
    { system: "PROMPT-DOCS", reply: say("Docs here: the page is written.") },
    { system: "PROMPT-CONFIGURED-NOTES", reply: say("Configured notes here.") },
    { system: "PROMPT-ENABLED-NOTES", reply: say("Enabled notes here.") },
  ],
  say("Tell me which agent to ask."),
);

describe("the supervisor joins the configured agents DYNAMIC_AGENTS_URL lists", () => {
  let llm: ScriptedLlm;
  let host: ConfiguredHost;
  let supervisor: AgentProcess;
  let bystander: Server;
  let bystanderUrl: string;
  let bystanderHits = 0;
  const agents: RunningAgent[] = [];
  const targets: Record<string, string> = {};
  const entry = (id: string, path = id) => ({
    id,
    name: id,
    description: `${id}, configured`,
    url: `${host.url}/agents/${path}`,
  });

  beforeAll(async () => {
    llm = await startScriptedLlm({ script });
    host = await startConfiguredHost(targets);
    bystander = createServer((_req, res) => {
      bystanderHits += 1;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => bystander.listen(0, "127.0.0.1", resolve));
    bystanderUrl = `http://127.0.0.1:${(bystander.address() as AddressInfo).port}`;
    const serve = (name: string, prompt: string, publicUrl?: string) =>
      serveAgent(agentDefinition(name, prompt), {
        env: {
          PORT: "0",
          HOST: "127.0.0.1",
          LANGGRAPH_CHECKPOINT_TYPE: "memory",
          ...(publicUrl ? { AGENT_PUBLIC_URL: publicUrl } : {}),
          ...llm.env,
        },
        logger: createLogger({ level: "silent" }),
      });
    const [reviewer, docs, notes, enabledNotes] = await Promise.all([
      serve("reviewer", "PROMPT-REVIEWER", `${host.url}/agents/reviewer`),
      serve("docs", "PROMPT-DOCS", `${host.url}/agents/docs`),
      serve("notes", "PROMPT-CONFIGURED-NOTES", `${host.url}/agents/notes`),
      serve("notes", "PROMPT-ENABLED-NOTES"),
    ]);
    agents.push(reviewer, docs, notes, enabledNotes);
    Object.assign(targets, { reviewer: reviewer.url, docs: docs.url, notes: notes.url });
    supervisor = await startAgent("supervisor", await freePort(), {
      ...llm.env,
      LANGGRAPH_CHECKPOINT_TYPE: "memory",
      ENABLE_NOTES: "true",
      NOTES_AGENT_URL: enabledNotes.url,
      DYNAMIC_AGENTS_URL: host.url,
      DYNAMIC_AGENTS_POLL_SECONDS: "0.05",
    });
  });
  afterAll(async () => {
    await supervisor?.kill("SIGTERM");
    await Promise.all(agents.map((agent) => agent.close()));
    await Promise.all([host?.close(), llm?.close(), new Promise((resolve) => bystander?.close(resolve))]);
  });

  const subagents = async () =>
    (
      (await (await fetch(`${supervisor.url}/subagents`)).json()) as {
        subagents: Array<{ name: string; status: string; description?: string; reason?: string }>;
      }
    ).subagents;
  const statuses = async () => (await subagents()).map(({ name, status }) => `${name}:${status}`);
  const ask = async (text: string) => {
    const connection = await connectAgent(supervisor.url);
    return (await connection.send({ text, contextId: `configured-${Math.random()}` })).text;
  };
  /** Waits until the supervisor has read the listing `times` more times. */
  const pollsGoBy = async (times = 3) => {
    const before = host.reads();
    await expect.poll(host.reads).toBeGreaterThanOrEqual(before + times);
  };
  /** The supervisor's log lines that contain `text`. */
  const logLines = (text: string) =>
    supervisor
      .logs()
      .split("\n")
      .filter((line) => line.includes(text));

  it("agents made on the host join, are routed to, and leave when deleted, without a restart", async () => {
    host.list([entry("reviewer")]);
    await expect.poll(statuses).toEqual(["notes:available", "reviewer:available"]);
    expect((await subagents()).find((agent) => agent.name === "reviewer")?.description).toBe(
      "reviewer: Does reviewer things.",
    );
    expect(await ask("forward to reviewer: review pull request 7")).toBe(
      "Reviewer here: the change looks right.",
    );

    host.list([entry("reviewer"), entry("docs")]);
    await expect.poll(statuses).toEqual(["notes:available", "reviewer:available", "docs:available"]);
    expect(await ask("forward to docs: write the page")).toBe("Docs here: the page is written.");

    host.list([entry("docs")]);
    await expect.poll(statuses).toEqual(["notes:available", "docs:available"]);
    expect(await ask("reviewer: review pull request 8")).toContain(
      'No agent named "reviewer" is enabled (enabled: notes, docs). To add one, set ENABLE_REVIEWER=true and REVIEWER_AGENT_URL.',
    );
    await expect.poll(() => logLines("subagent reviewer left")).toHaveLength(1);
  });

  it("an ENABLE_<AGENT> agent of the same name wins, and that is said once", async () => {
    host.list([entry("docs"), entry("notes")]);
    await pollsGoBy(5);
    expect(await statuses()).toEqual(["notes:available", "docs:available"]);
    expect(await ask("forward to notes: what is on my list")).toBe("Enabled notes here.");
    await expect
      .poll(() => logLines("is not routed to: ENABLE_NOTES names an agent of the same name"))
      .toHaveLength(1);
  });

  it("a hostile listing: entries elsewhere, with bad names, taken names or credentials are refused, the rest kept", async () => {
    const bystanderBefore = bystanderHits;
    host.list([
      entry("docs"),
      // Elsewhere: another origin (a host the listing wants tokens sent to), even a loopback one.
      { id: "evil", name: "evil", url: `${bystanderUrl}/agents/evil` },
      { id: "evil-relative", name: "evil", url: "//127.0.0.1:1/agents/evil" },
      // Not agent names, the supervisor's own, one already taken.
      { id: "Admin Agent", name: "admin", url: `${host.url}/agents/reviewer` },
      { id: "../../etc", name: "x", url: `${host.url}/agents/reviewer` },
      { id: "supervisor", name: "supervisor", url: `${host.url}/agents/reviewer` },
      { id: "docs_", name: "docs", url: `${host.url}/agents/reviewer` },
      // Credentials or a query in the URL; not entries at all.
      { id: "creds", name: "creds", url: `http://user:secret@${new URL(host.url).host}/agents/docs` },
      { id: "query", name: "query", url: `${host.url}/agents/docs?next=http://elsewhere` },
      { id: 7, url: `${host.url}/agents/docs` },
      "reviewer",
      // On the host, but the card there is another agent's: the roster refuses it.
      entry("impostor", "docs"),
      // Who it is for, in a shape that is not a list of groups.
      { id: "teams-bad", name: "x", url: `${host.url}/agents/docs`, teams: "everyone" },
    ]);
    await expect.poll(statuses).toEqual(["notes:available", "docs:available", "impostor:refused"]);
    await pollsGoBy(5);
    expect(bystanderHits).toBe(bystanderBefore);
    expect(supervisor.logs()).not.toContain("user:secret");
    const refusals = [
      'id \\"evil\\"): its url is on http://127.0.0.1',
      'id \\"evil-relative\\"): its url is on http://127.0.0.1:1',
      'id \\"Admin Agent\\"): its id is not an agent name',
      'id \\"../../etc\\"): its id is not an agent name',
      'id \\"supervisor\\"): its id is the supervisor\'s own name',
      'id \\"docs_\\"): an earlier entry already names the agent \\"docs\\"',
      'id \\"creds\\"): its url carries a user name or password',
      'id \\"query\\"): its url carries a query or a fragment',
      "Refusing entry 9 of DYNAMIC_AGENTS_URL's listing: it needs an id and a url, both strings",
      "Refusing entry 10 of DYNAMIC_AGENTS_URL's listing: it needs an id and a url, both strings",
      "Refusing entry 12 of DYNAMIC_AGENTS_URL's listing: it needs an id and a url, both strings (and teams, if any, at most 100 group names)",
    ];
    // Each said once, though every poll reads them again.
    for (const refusal of refusals)
      await expect.poll(() => logLines(refusal), { message: refusal }).toHaveLength(1);
    expect((await subagents()).find((agent) => agent.name === "impostor")?.reason).toBe(
      "Its card does not match the agent configured; the supervisor's log says why.",
    );
    expect(
      logLines('its card is named \\"docs\\", but DYNAMIC_AGENTS_URL\'s listing expects \\"impostor\\"'),
    ).not.toEqual([]);
    expect(await ask("evil: hello")).toContain('No agent named "evil" is enabled');
  });

  it("a listing that breaks or cannot be read keeps the last good set, and says why", async () => {
    host.list([entry("reviewer")]);
    await expect.poll(statuses).toEqual(["notes:available", "reviewer:available"]);
    const failures: Array<[string, (req: IncomingMessage, res: ServerResponse) => void, string]> = [
      [
        "an error",
        (_req, res) => res.writeHead(500).end('{"error":"database down"}'),
        "HTTP 500 to GET /agents: database down",
      ],
      ["not JSON", (_req, res) => res.writeHead(200).end("<html>proxy</html>"), "its answer is not JSON"],
      [
        "not a listing",
        (_req, res) => res.writeHead(200).end('{"agents":"all"}'),
        'it is not { \\"agents\\"',
      ],
      [
        "too long a listing",
        (_req, res) =>
          res
            .writeHead(200)
            .end(JSON.stringify({ agents: Array.from({ length: 1001 }, (_, i) => entry(`a${i}`)) })),
        "with at most 1000 agents",
      ],
      ["gone", (req) => req.socket.destroy(), "fetch failed"],
    ];
    for (const [what, answer, logged] of failures) {
      host.answerWith(answer);
      await pollsGoBy(3);
      expect(await statuses(), what).toEqual(["notes:available", "reviewer:available"]);
      // Log lines come through the process's stdout, which may trail its HTTP answers: waited for.
      await expect.poll(() => logLines(logged), { message: what }).not.toEqual([]);
    }
    expect(logLines("Cannot read the configured agents at").length).toBeLessThan(15);
    expect(await ask("forward to reviewer: review pull request 9")).toBe(
      "Reviewer here: the change looks right.",
    );

    host.list([entry("docs")]);
    await expect.poll(statuses).toEqual(["notes:available", "docs:available"]);
    await expect.poll(() => logLines("read the configured agents again")).not.toEqual([]);
  });
});
