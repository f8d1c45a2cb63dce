// `pnpm bench:stream` (pnpm --filter @switchboard-testing/web-e2e bench:stream): how soon the answer
// starts to show and whether it flows, as a user sees it, with a scripted model that writes like a
// real one: BENCH_FIRST_TOKEN_MS before its first token (default 300), then one word every
// BENCH_TOKEN_MS (default 25), 42 words. Measured from the user's message to the first answer word
// on screen, then the gaps between the pieces the words arrive in, for a turn direct to Jira (the
// web chat: the supervisor answering itself), a routed turn whose `final` hop forwards Jira's words,
// and a routed turn the supervisor answers itself after the hop; over A2A streaming (the a2a-client
// in this process), the CLI (tools/cli, interactive, reading its stdout) and the web chat in
// Chromium. Beside it, the model's own time to the first answer word on that path (its calls made
// straight to the scripted model): what is left is what the hops add.
// The local fleet as `npm start` runs it (Jira agent, supervisor, web chat), MongoDB checkpoints
// (MONGODB_URI, else the test MongoDB). BENCH_ROUNDS: turns per path and surface (default 10).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connectAgent } from "@switchboard/a2a-client";
import { benchReport } from "@switchboard-testing/benches";
import { startFakeJira } from "@switchboard-testing/fake-jira";
import { routeByAgentPrefix, rules, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { repoRoot, startChatFleet } from "../src/chat-fleet.js";
import { ensureChromium, launchBrowser } from "../src/chromium.js";
import { openPage } from "../src/page.js";

const report = benchReport(new URL("./README.md", import.meta.url), "stream");

const FIRST_TOKEN_MS = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 300);
const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 25);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WORDS = 42;
const STORY = Array.from({ length: WORDS }, (_, i) => `word${i + 1}`).join(" ");
/** The target: the first word no later than the model's own time plus this per hop (p50). */
const PER_HOP_MS = 50;

/** The supervisor answers "tell a story" itself, routes "<agent>: …"; Jira tells the story. */
const script = rules([...routeByAgentPrefix(), { lastUser: /tell a story/, reply: say(STORY) }], say("?"));

interface Path {
  name: string;
  /** Which agent the message goes to, and what it says. */
  target: "jira" | "supervisor";
  text: string;
  /** The A2A hops the message crosses: the client's to the first agent, and the supervisor's to a subagent. */
  hops: number;
  /** The model calls before the first answer word: the user text each answers, whether call_agent is offered, whether it must finish. */
  modelCalls: Array<{ text: string; routing: boolean; whole: boolean }>;
}

const ROUTING = (text: string) => ({ text, routing: true, whole: true });
const paths: Path[] = [
  {
    name: "direct to Jira",
    target: "jira",
    text: "tell a story",
    hops: 1,
    modelCalls: [{ text: "tell a story", routing: false, whole: false }],
  },
  {
    name: "routed, final hop",
    target: "supervisor",
    text: "forward to jira: tell a story",
    hops: 2,
    modelCalls: [
      ROUTING("forward to jira: tell a story"),
      { text: "tell a story", routing: false, whole: false },
    ],
  },
  {
    name: "routed, supervisor answers",
    target: "supervisor",
    text: "jira: tell a story",
    hops: 2,
    modelCalls: [
      ROUTING("jira: tell a story"),
      { text: "tell a story", routing: false, whole: true },
      { text: "after the hop", routing: true, whole: false },
    ],
  },
];
/** The web chat talks to the supervisor: its direct turn is the supervisor answering itself. */
const webPaths: Path[] = [
  {
    name: "supervisor answers itself",
    target: "supervisor",
    text: "tell a story",
    hops: 1,
    modelCalls: [ROUTING("tell a story")].map((call) => ({ ...call, whole: false })),
  },
  ...paths.slice(1),
];

/** One turn as seen: when the message went, and each time more answer words showed. */
interface Seen {
  start: number;
  pieces: Array<{ at: number; words: number }>;
}

const wordsIn = (text: string) => text.match(/\bword\d+\b/g)?.length ?? 0;

/** Records a piece whenever the shown answer holds more words than before. */
function recorder(start: number): { seen: Seen; show: (text: string) => void } {
  const seen: Seen = { start, pieces: [] };
  let shown = 0;
  return {
    seen,
    show: (text) => {
      const words = wordsIn(text);
      if (words > shown) seen.pieces.push({ at: performance.now(), words: words - shown });
      shown = Math.max(shown, words);
    },
  };
}

/** A2A streaming: the a2a-client's events, the answer artifact folded as a client shows it. */
async function a2aTurn(url: string, text: string): Promise<Seen> {
  const connection = await connectAgent(url);
  const { seen, show } = recorder(performance.now());
  const shown = new Map<string, string>();
  for await (const event of connection.stream({ text, contextId: randomUUID() })) {
    if (event.kind !== "artifact") continue;
    const before = shown.get(event.artifactId) ?? "";
    shown.set(event.artifactId, event.append ? before + event.text : event.text);
    show([...shown.values()].join("\n"));
  }
  return seen;
}

/** The CLI in a chat session (stdin and stdout piped): a line typed, then its stdout read. */
class CliSession {
  private readonly child: ChildProcess;
  private output = "";
  private listener: (() => void) | undefined;

  constructor(url: string) {
    this.child = spawn(
      process.execPath,
      [join(repoRoot, "tools", "cli", "bin", "switchboard.js"), "--url", url],
      {
        env: { PATH: process.env.PATH, NO_COLOR: "1" },
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    this.child.stdout?.setEncoding("utf8");
    this.child.stdout?.on("data", (chunk: string) => {
      this.output += chunk;
      this.listener?.();
    });
  }

  /** Waits until the output so far satisfies `done`. */
  private waitFor(done: (output: string) => boolean, timeoutMs = 60_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`CLI: no prompt within ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      );
      this.listener = () => {
        if (!done(this.output)) return;
        clearTimeout(timer);
        this.listener = undefined;
        resolve();
      };
      this.listener();
    });
  }

  ready(): Promise<void> {
    return this.waitFor((output) => output.endsWith("› "));
  }

  async turn(text: string): Promise<Seen> {
    this.output = "";
    const { seen, show } = recorder(performance.now());
    const ended = this.waitFor((output) => {
      // Progress lines ("… jira: Calling …") hold no answer words.
      show(
        output
          .split("\n")
          .filter((line) => !line.startsWith("…"))
          .join("\n"),
      );
      return output.endsWith("› ");
    });
    seen.start = performance.now();
    this.child.stdin?.write(`${text}\n`);
    await ended;
    return seen;
  }

  close(): void {
    this.child.stdin?.end();
  }
}

/**
 * Runs in the page: sends a message the way Enter does and resolves, once the whole answer shows,
 * with the milliseconds from send to each growth of the answer's words. A string, so the script
 * runner's transforms never reach the page.
 */
const WATCH_ANSWER = `async ([message, total]) => {
  const answers = () => document.querySelectorAll(".messages li.agent .answer");
  const before = answers().length;
  const box = document.querySelector("#message");
  box.value = message;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const started = performance.now();
  const pieces = [];
  let shown = 0;
  box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  return new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error("no whole answer within 60 s")), 60000);
    const observer = new MutationObserver(() => {
      const list = answers();
      if (list.length <= before) return;
      const words = (list[list.length - 1].textContent.match(/\\bword\\d+\\b/g) || []).length;
      if (words > shown) pieces.push({ at: performance.now() - started, words: words - shown });
      shown = Math.max(shown, words);
      if (shown >= total) {
        observer.disconnect();
        resolve(pieces);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}`;

/** The model alone: the time to its first answer word on a path, its calls made straight to it. */
async function modelOwnTime(llmUrl: string, path: Path): Promise<number> {
  let total = 0;
  for (const call of path.modelCalls) {
    const body = {
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: call.text }],
      ...(call.routing
        ? {
            tools: [
              {
                type: "function",
                function: { name: "call_agent", parameters: { type: "object", properties: {} } },
              },
            ],
          }
        : {}),
    };
    // After the hop, the supervisor's model answers from the tool result: the story again.
    if (call.text === "after the hop") {
      body.messages = [
        { role: "user", content: "jira: tell a story" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "call_agent", arguments: '{"agent":"jira"}' } },
          ],
        } as never,
        { role: "tool", tool_call_id: "c1", content: `The jira agent answered: ${STORY}` } as never,
      ];
    }
    const start = performance.now();
    const response = await fetch(`${llmUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // To the first answer word as the surfaces count them (a story word): after the hop the model
      // first writes "The jira agent answered: ", which shows before it.
      if (!call.whole && /"content":"[^"]*\bword\d/.test(text)) {
        await reader.cancel();
        break;
      }
    }
    total += performance.now() - start;
  }
  return total;
}

/** Waits until the agent's GET /ready answers 200 (up to two minutes). */
async function waitUntilReady(url: string): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    if (
      await fetch(`${url}/ready`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within two minutes`);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

interface Row {
  surface: string;
  path: Path;
  own: number;
  turns: Seen[];
}

function printTable(rows: Row[]): void {
  report.print(
    `\nFirst answer word and the flow of the rest: a scripted model with ${FIRST_TOKEN_MS} ms to its first token, then ${TOKEN_MS} ms a word, ${WORDS} words; ${ROUNDS} turns per row\n`,
  );
  report.print(
    "| surface | path | model's own ms | first word p50 ms | p95 ms | overhead p50 ms | target (+50 ms/hop) | pieces p50 | gap p50 ms | gap p95 ms | last piece, words p50 |",
  );
  report.print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |");
  for (const { surface, path, own, turns } of rows) {
    const first = turns.map((turn) => (turn.pieces[0]?.at ?? Number.NaN) - turn.start);
    const gaps = turns.flatMap((turn) =>
      turn.pieces.slice(1).map((piece, i) => piece.at - (turn.pieces[i]?.at ?? 0)),
    );
    const p50 = quantile(first, 0.5);
    const overhead = p50 - own;
    const allowed = PER_HOP_MS * path.hops;
    const met = `+${allowed}: ${overhead <= allowed ? "met" : `missed by ${(overhead - allowed).toFixed(0)} ms`}`;
    report.print(
      `| ${surface} | ${path.name} | ${own.toFixed(0)} | ${p50.toFixed(0)} | ${quantile(first, 0.95).toFixed(0)} | ${overhead.toFixed(0)} | ${met} | ${quantile(
        turns.map((turn) => turn.pieces.length),
        0.5,
      )} | ${quantile(gaps, 0.5).toFixed(0)} | ${quantile(gaps, 0.95).toFixed(0)} | ${quantile(
        turns.map((turn) => turn.pieces.at(-1)?.words ?? 0),
        0.5,
      )} |`,
    );
  }
  report.print(
    "\nmodel's own: its calls on that path made straight to the scripted model (the routing call to its end, a subagent's answer to its first story word, or to its end when the supervisor answers after it, then the supervisor's answer to its first story word). Hops are the A2A hops the message crosses: one for a direct turn (the client's), two for a routed one (the client's and the supervisor's); the web chat's own server is not counted as one.",
  );
}

async function main(): Promise<void> {
  ensureChromium((line) => console.log(line));
  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const [llm, jira] = await Promise.all([
    startScriptedLlm({ script, latencyMs: FIRST_TOKEN_MS, tokenIntervalMs: TOKEN_MS }),
    startFakeJira(),
  ]);
  const storage = {
    MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_stream_${Date.now()}`,
  };
  // startChatFleet runs only the Jira agent beside the supervisor.
  const chat = await startChatFleet({ storage, llm, jira });
  if (chat.fleet.failed.length > 0)
    throw new Error(`The fleet did not start: ${JSON.stringify(chat.fleet.failed)}`);
  const urls = {
    supervisor: `http://127.0.0.1:${chat.env.SUPERVISOR_PORT}`,
    jira: `http://127.0.0.1:${chat.env.JIRA_AGENT_PORT}`,
  };
  const browser = await launchBrowser();
  let clis: Record<"supervisor" | "jira", CliSession> | undefined;
  try {
    // A loaded machine may take a while to bring both agents up.
    await Promise.all(Object.values(urls).map(waitUntilReady));
    clis = { supervisor: new CliSession(urls.supervisor), jira: new CliSession(urls.jira) };
    const cli = clis;
    process.stderr.write("The fleet is ready; timing the model alone.\n");
    const own = new Map<string, number>();
    for (const path of [...paths, ...webPaths]) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push(await modelOwnTime(llm.url, path));
      own.set(path.name, quantile(times, 0.5));
    }
    await Promise.all([cli.supervisor.ready(), cli.jira.ready()]);
    const page = await openPage(browser, chat.webUrl);
    await page.locator('.agents li[data-agent="jira"] .status-up').waitFor();

    const surfaces: Record<string, { paths: Path[]; turn: (path: Path) => Promise<Seen> }> = {
      "A2A stream": { paths, turn: (path) => a2aTurn(urls[path.target], path.text) },
      CLI: { paths, turn: (path) => cli[path.target].turn(path.text) },
      "web chat": {
        paths: webPaths,
        turn: async (path) => {
          // The page refreshes its conversation list as a turn ends: a user's next message comes
          // after that, not on top of it.
          const listed = page.waitForResponse((response) => response.url().endsWith("/api/conversations"));
          // Times in the page, from the send.
          const pieces = (await page.evaluate(
            `(${WATCH_ANSWER})(${JSON.stringify([path.text, WORDS])})`,
          )) as Seen["pieces"];
          // The next turn waits for this one to end.
          await page.waitForFunction(() => !document.querySelector(".activity"));
          await listed;
          return { start: 0, pieces };
        },
      },
    };
    const rows: Row[] = [];
    for (const [surface, { paths: list, turn }] of Object.entries(surfaces)) {
      const turns = new Map<string, Seen[]>(list.map((path) => [path.name, []]));
      // One warm-up round, then the paths in turn, so a slow spell lands on all alike.
      for (let round = 0; round < ROUNDS + 1; round++) {
        for (const path of list) {
          process.stderr.write(`${surface}, ${path.name}: round ${round} of ${ROUNDS}\n`);
          const seen = await turn(path);
          if (seen.pieces.length === 0) throw new Error(`${surface}, ${path.name}: no answer words shown`);
          if (round > 0) turns.get(path.name)?.push(seen);
        }
      }
      for (const path of list)
        rows.push({ surface, path, own: own.get(path.name) ?? 0, turns: turns.get(path.name) ?? [] });
    }
    printTable(rows);
  } finally {
    clis?.supervisor.close();
    clis?.jira.close();
    await browser.close();
    await chat.stop();
    await Promise.all([llm.close(), jira.close()]);
    await mongo?.stop();
  }
}

await main();
report.save();
