// `pnpm bench:slack` (pnpm --filter @switchboard-testing/benches bench:slack): the same turn asked in Slack and in
// the web chat, side by side, printed as a table. The local fleet (supervisor, Jira agent, web chat;
// AUTH_MODE=none) with a scripted model that answers at once, so the numbers are what the relay and
// the chat paths add. Slack: the real Bolt client in Socket Mode against the local workspace, timed
// from the envelope sent on the WebSocket to the placeholder in the thread, the first progress edit,
// and the final answer. Web chat: the A2A stream through the web chat's server (the client the page
// runs), timed from the send to the first progress event and to the answer.
import { connectAgent, progressText } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { startFakeSlack } from "@switchboard-testing/fake-slack";
import { freePort } from "@switchboard-testing/test-agents";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { slackBotEnv, startBot, startRelayFleet, until } from "../../../tools/slack-bot/test/relay-fleet.js";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "slack");

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const WARM_UP = 2;
const CHANNEL = "C0BENCH";
const USER = "U0BENCH";

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const storage = {
  MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench-slack-${Date.now()}`,
};
const slack = await startFakeSlack({ users: [{ id: USER, name: "bench" }] });
const botPort = await freePort();
const fleet = await startRelayFleet({ storage, webPort: await freePort(), slackBotPort: botPort });
const bot = await startBot({
  ...slackBotEnv({
    slack,
    storage,
    supervisorUrl: fleet.supervisorUrl,
    webUrl: fleet.webUrl,
    port: botPort,
    updateIntervalMs: 1000,
  }),
  LOG_LEVEL: "error",
});
await slack.waitForConnections(1);
const web = await connectAgent(fleet.webUrl, { logger: createLogger({ level: "silent" }) });

interface Sample {
  first: number;
  progress: number;
  answer: number;
}

async function slackTurn(text: string): Promise<Sample> {
  const started = Date.now();
  const said = await slack.say(USER, CHANNEL, `<@${slack.workspace.botUserId}> ${text}`);
  const reply = await until(
    "the answer in Slack",
    () => {
      const [message] = slack.botReplies(CHANNEL, said.ts);
      return message && !message.text.includes("Working") ? message : undefined;
    },
    60_000,
  );
  const [placeholder, ...edits] = reply.versions;
  const progress = edits.find((version) => version.text.includes("Working:")) ?? edits.at(-1);
  return {
    first: (placeholder?.at ?? started) - started,
    progress: (progress?.at ?? started) - started,
    answer: (reply.versions.at(-1)?.at ?? started) - started,
  };
}

async function webTurn(text: string): Promise<Sample> {
  const started = performance.now();
  let first: number | undefined;
  let progress: number | undefined;
  for await (const event of web.stream({ text })) {
    first ??= performance.now() - started;
    if (progress === undefined && progressText(event, web.card.name)) progress = performance.now() - started;
  }
  const answer = performance.now() - started;
  return { first: first ?? answer, progress: progress ?? answer, answer };
}

const rows: Array<[string, (text: string) => Promise<Sample>, string]> = [
  ["Slack, routed to Jira", slackTurn, "jira: open issues in PLAT"],
  ["web chat, routed to Jira", webTurn, "jira: open issues in PLAT"],
  ["Slack, answered by the supervisor", slackTurn, "hello there"],
  ["web chat, answered by the supervisor", webTurn, "hello there"],
];
const samples = new Map<string, Sample[]>(rows.map(([name]) => [name, []]));
try {
  for (let round = 0; round < ROUNDS + WARM_UP; round++) {
    for (const [name, turn, text] of rows) {
      const sample = await turn(text);
      if (round >= WARM_UP) samples.get(name)?.push(sample);
    }
  }
} finally {
  await bot.stop();
  await fleet.stop();
  await slack.close();
  await mongo?.stop();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const p90 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? 0;
};
report.print(
  `\nOne turn in Slack (Bolt, Socket Mode, live edits at most 1/s) beside the web chat (A2A stream through its server); zero-latency scripted model, ${ROUNDS} rounds after ${WARM_UP} warm-up\n`,
);
report.print(
  "| path | first update ms (median) | first progress ms (median) | answer ms (median) | answer ms (p90) |\n| --- | ---: | ---: | ---: | ---: |",
);
for (const [name] of rows) {
  const list = samples.get(name) ?? [];
  const pick = (key: keyof Sample) => list.map((sample) => sample[key]);
  report.print(
    `| ${name} | ${median(pick("first")).toFixed(0)} | ${median(pick("progress")).toFixed(0)} | ${median(pick("answer")).toFixed(0)} | ${p90(pick("answer")).toFixed(0)} |`,
  );
}
report.print(
  "\nSlack's first update is the placeholder posted in the thread; the web chat's is the first streamed event. First progress: the first edit naming who works (Slack) or the first progress event (web). The Slack answer is the edit that replaces the placeholder.",
);
report.save();
