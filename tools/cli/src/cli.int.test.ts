import { randomUUID } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { freePort } from "@switchboard-testing/test-agents";
import {
  callTool,
  messageText,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InteractiveCli, runCli } from "../test/cli-process.js";
import { notesAgent } from "../test/notes-agent.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe("switchboard CLI against a real agent", () => {
  const dbName = uniqueDbName("cli");
  const notes: string[] = [];
  let llm: ScriptedLlm;
  let agent: RunningAgent | undefined;
  let chat: InteractiveCli | undefined;

  const start = async (extra: Record<string, string> = {}) => {
    agent = await serveAgent(notesAgent(notes), {
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        AGENT_NAME: "notes",
        ...testMongoEnv(dbName),
        ...llm.env,
        ...extra,
      },
      logger: createLogger({ level: "silent" }),
    });
    return agent.url;
  };

  /** The user messages the scripted LLM received in its newest request. */
  const userMessagesSeen = () =>
    (llm.requests.at(-1)?.messages ?? [])
      .filter((message) => message.role === "user")
      .map((message) => messageText(message.content));

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /add note (.+)/,
            reply: (_req, { match }) => callTool("add_note", { text: match?.[1] }),
          },
          { lastUser: /list notes/, reply: callTool("list_notes", {}) },
          { lastUser: /jira/, reply: callTool("ask_jira", {}) },
          { lastUser: /secret/, reply: callTool("secret_notes", {}) },
          {
            lastUser: /what did I say/,
            reply: (request) => {
              const earlier = request.messages.filter((message) => message.role === "user").slice(0, -1);
              const said = earlier.map((message) => messageText(message.content));
              return say(
                said.length ? `Earlier you said: ${said.join(" | ")}` : "You have not said anything yet.",
              );
            },
          },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        say("Noted."),
      ),
    });
  });
  afterEach(async () => {
    chat?.kill();
    chat = undefined;
    await agent?.close();
    agent = undefined;
    notes.length = 0;
  });
  afterAll(async () => {
    const mongo = await MongoClient.connect(testMongoUri());
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
    await llm.close();
  });

  describe("--message", () => {
    it("prints the answer on stdout and exits 0; progress stays off stdout", async () => {
      notes.push("call mom");
      const { code, stdout, stderr } = await runCli(["--url", await start(), "--message", "list notes"]);
      expect(code).toBe(0);
      expect(stdout).toBe('list_notes returned: ["call mom"]\n');
      expect(stderr).toBe("");
    });

    it("prints {contextId, taskId, state, text} with --json, keeping the given --context", async () => {
      const url = await start();
      const contextId = `ctx-${randomUUID()}`;
      const { code, stdout } = await runCli(["--url", url, "--context", contextId, "--json", "-m", "hello"]);
      expect(code).toBe(0);
      const answer = JSON.parse(stdout) as Record<string, unknown>;
      expect(answer).toEqual({ contextId, taskId: expect.any(String), state: "completed", text: "Noted." });
      expect(answer.taskId).not.toBe("");
    });

    it("exits 2 and prints the question when the agent asks for a confirmation, then --task answers it", async () => {
      const url = await start();
      const asked = await runCli(["--url", url, "--message", "add note buy milk"]);
      expect(asked.code).toBe(2);
      expect(asked.stdout).toMatch(/^\? Add the note "buy milk" to your notes\?.*yes or no/s);
      expect(asked.stderr).toMatch(/Answer with: switchboard --context \S+ --task \S+ --message "yes"/);
      expect(notes).toEqual([]);

      const json = await runCli(["--url", url, "--json", "--message", "add note sell car"]);
      expect(json.code).toBe(2);
      const pending = JSON.parse(json.stdout) as {
        contextId: string;
        taskId: string;
        state: string;
        question: string;
      };
      expect(pending).toMatchObject({
        state: "input-required",
        question: expect.stringContaining('"sell car"'),
      });

      const done = await runCli([
        "--url",
        url,
        "--context",
        pending.contextId,
        "--task",
        pending.taskId,
        "-m",
        "yes",
      ]);
      expect(done.code).toBe(0);
      expect(done.stdout).toContain('added "sell car"');
      expect(notes).toEqual(["sell car"]);
    });

    it("exits 1 with the agent's reason when the turn fails", async () => {
      const { code, stdout, stderr } = await runCli([
        "--url",
        await start(),
        "--message",
        "show secret notes",
      ]);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toContain("✗ failed: NOTES_TOKEN is not set: set it to read secret notes.");
    });

    it("with --verbose streams who is working to stderr while the answer goes to stdout", async () => {
      const { code, stdout, stderr } = await runCli([
        "--url",
        await start(),
        "-v",
        "-m",
        "ask jira about JIRA-7",
      ]);
      expect(code).toBe(0);
      expect(stdout).toBe("ask_jira returned: JIRA-7 is open\n");
      expect(stderr.split("\n").filter(Boolean)).toEqual([
        "… Calling ask_jira",
        "… Asking the jira agent",
        "… jira: Calling search_issues",
        "… ask_jira done",
      ]);
    });

    it("sends --token (or SWITCHBOARD_TOKEN) as a bearer token on every request", async () => {
      const proxy = await recordingProxy();
      try {
        proxy.target = await start({ AGENT_PUBLIC_URL: proxy.url });
        const byFlag = await runCli(["--url", proxy.url, "--token", "t0ken-flag", "-m", "hello"]);
        expect(byFlag.code).toBe(0);
        const byEnv = await runCli(["--url", proxy.url, "-m", "hello"], { SWITCHBOARD_TOKEN: "t0ken-env" });
        expect(byEnv.code).toBe(0);
        expect(new Set(proxy.authorizations)).toEqual(new Set(["Bearer t0ken-flag", "Bearer t0ken-env"]));
        expect(proxy.authorizations.length).toBeGreaterThanOrEqual(4); // card and message, twice
      } finally {
        await proxy.close();
      }
    });
  });

  describe("when the agent is not running", () => {
    it("says so and how to fix it, with exit code 1, in both modes", async () => {
      const url = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      const expected = `Cannot reach the supervisor at ${url}: ECONNREFUSED. Start the fleet with npm start.\n`;
      const once = await runCli(["--message", "hi"], { SWITCHBOARD_URL: url });
      expect(once).toEqual({ code: 1, stdout: "", stderr: expected });
      const interactive = await runCli(["--url", url]);
      expect(interactive).toEqual({ code: 1, stdout: "", stderr: expected });
    });
  });

  describe("interactive chat", () => {
    it("streams progress lines before the answer and keeps the conversation across turns", async () => {
      chat = new InteractiveCli(["--url", await start()]);
      const contextId = (await chat.waitFor(new RegExp(`conversation (${UUID.source})`)))[1];
      chat.send("ask jira about JIRA-7");
      await chat.waitFor(/ask_jira returned: JIRA-7 is open\n/);
      const out = chat.stdout;
      const positions = [
        "… Asking the jira agent\n",
        "… jira: Calling search_issues\n",
        "ask_jira returned: JIRA-7 is open\n",
      ].map((line) => out.indexOf(line));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);

      chat.send("what did I say before?");
      await chat.waitFor(/Earlier you said: ask jira about JIRA-7\n/);
      chat.send("/quit");
      expect((await chat.exited).code).toBe(0);
      expect(contextId).toBeDefined();
    });

    it("answers a confirmation with the next line, on the same task", async () => {
      chat = new InteractiveCli(["--url", await start()]);
      chat.send("add note water plants");
      await chat.waitFor(/\? Add the note "water plants" to your notes\?\n/);
      await chat.waitFor(/answer› $/);
      expect(notes).toEqual([]);
      chat.send("yes");
      await chat.waitFor(/added "water plants"\n/);
      expect(notes).toEqual(["water plants"]);
      chat.endInput(); // Ctrl-D
      expect((await chat.exited).code).toBe(0);
    });

    it("/new starts a new conversation the agent knows nothing about", async () => {
      chat = new InteractiveCli(["--url", await start()]);
      const first = (await chat.waitFor(new RegExp(`conversation (${UUID.source})`)))[1];
      chat.send("remember the color teal");
      await chat.waitFor(/Noted\.\n/);
      chat.send("/new");
      const second = (await chat.waitFor(new RegExp(`conversation (${UUID.source})`)))[1];
      expect(second).not.toBe(first);
      chat.send("what did I say?");
      await chat.waitFor(/You have not said anything yet\.\n/);
      expect(userMessagesSeen()).toEqual(["what did I say?"]);
      chat.send("/quit");
      expect((await chat.exited).code).toBe(0);
    });

    it("sends /<tool> lines to the agent, as offline mode's help says, and keeps /new for itself", async () => {
      notes.push("call mom");
      chat = new InteractiveCli(["--url", await start({ LLM_PROVIDER: "offline" })]);
      const first = (await chat.waitFor(new RegExp(`conversation (${UUID.source})`)))[1];
      chat.send("hello");
      await chat.waitFor(/type \/<tool> followed by key=value arguments/);
      chat.send("/list_notes");
      await chat.waitFor(/\[offline mode\] list_notes returned:\n\["call mom"\]\n/);
      // `//` sends the rest with one slash: a tool named like a client command is reachable too.
      chat.send("//new");
      await chat.waitFor(/There is no tool named "new"/);
      chat.send("/new");
      const second = (await chat.waitFor(new RegExp(`conversation (${UUID.source})`)))[1];
      expect(second).not.toBe(first);
      expect(chat.stdout).not.toContain("Unknown command");
      chat.send("/quit");
      expect((await chat.exited).code).toBe(0);
    });

    it("reports a failed turn and keeps the prompt, also when the agent goes away", async () => {
      const url = await start();
      chat = new InteractiveCli(["--url", url]);
      chat.send("show secret notes");
      await chat.waitFor(/✗ failed: NOTES_TOKEN is not set: set it to read secret notes\.\n› $/);
      chat.send("hello");
      await chat.waitFor(/Noted\.\n/);

      await agent?.close();
      agent = undefined;
      chat.send("hello again");
      await chat.waitFor(
        new RegExp(
          `✗ Cannot reach the supervisor at ${url}: ECONNREFUSED\\. Start the fleet with npm start\\.\\n› $`,
        ),
      );
      chat.send("/quit");
      expect((await chat.exited).code).toBe(0);
    });
  });

  it("--context resumes a conversation kept in MongoDB after the agent restarted", async () => {
    const first = await runCli(["--url", await start(), "--json", "-m", "remember the color teal"]);
    const { contextId } = JSON.parse(first.stdout) as { contextId: string };
    await agent?.close();

    chat = new InteractiveCli(["--url", await start(), "--context", contextId]);
    await chat.waitFor(new RegExp(`conversation ${contextId}\\n`));
    chat.send("what did I say?");
    await chat.waitFor(/Earlier you said: remember the color teal\n/);
    expect(userMessagesSeen()).toEqual(["remember the color teal", "what did I say?"]);
    chat.send("/quit");
    expect((await chat.exited).code).toBe(0);
  });
});

interface RecordingProxy {
  url: string;
  target: string;
  authorizations: string[];
  close(): Promise<void>;
}

/** A reverse proxy on loopback that notes the Authorization header of every request it forwards. */
async function recordingProxy(): Promise<RecordingProxy> {
  const proxy: RecordingProxy = { url: "", target: "", authorizations: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization) proxy.authorizations.push(req.headers.authorization);
    const upstream = httpRequest(
      new URL(req.url ?? "/", proxy.target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}
