import { join } from "node:path";
import { type Fleet, onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import {
  callTool,
  heldReply,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";

export const repoRoot = join(import.meta.dirname, "..", "..", "..");

/** An answer with markdown the page must render and HTML it must never run. */
export const MARKUP_SAMPLE = [
  "Here is the summary:",
  "",
  "| key | status |",
  "| --- | --- |",
  "| PLAT-1 | Open |",
  "",
  "```sh",
  "kubectl get pods -n platform",
  "```",
  "",
  `<script>window.__xss = "script"</script>`,
  `<img src="x" onerror="window.__xss = 'img'">`,
  `<a href="javascript:window.__xss='link'">a link</a>`,
  `<button onclick="window.__xss='button'">Approve</button>`,
  `<svg><animate onbegin="window.__xss='svg'" attributeName="x" dur="1s"/></svg>`,
].join("\n");

/** The Jira agent's model "thinks" about "take your time" while a test holds it: a turn to stop. */
export const thinking = heldReply(say("Done at last."));

/**
 * The scripted model behind every agent of the fleet: the supervisor routes "<agent>: <request>"
 * to that agent; the Jira agent searches and creates issues (a change it asks to confirm); "remember
 * that …" is kept by the supervisor's remember tool.
 */
export function chatScript() {
  return rules(
    [
      ...routeByAgentPrefix(),
      { toolOffered: "call_agent", lastUser: /markup sample/, reply: say(MARKUP_SAMPLE) },
      {
        toolOffered: "call_agent",
        lastUser: /^remember that (.+) \(topic: (.+)\)$/,
        reply: (_r, { match }) => callTool("remember", { memory: match?.[1], topic: match?.[2] }),
      },
      { afterTool: "remember", reply: replyFromToolResult((results) => results[0]?.content ?? "") },
      {
        toolOffered: "call_agent",
        reply: say("Tell me which agent to ask, e.g. jira: open issues in PLAT."),
      },
      { lastUser: /take your time/, reply: thinking.reply },
      {
        lastUser: /open issues in ([A-Z]+)/,
        reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY key` }),
      },
      {
        lastUser: /create a bug in ([A-Z]+): (.+)/,
        reply: (_r, { match }) =>
          callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
      },
      { afterTool: true, reply: replyFromToolResult() },
    ],
    say("ok"),
  );
}

export interface ChatFleet {
  fleet: Fleet;
  /** The web chat, e.g. `http://localhost:41234`. */
  webUrl: string;
  env: NodeJS.ProcessEnv;
  /** Stops every process and starts them again on the same ports and database. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ChatFleetOptions {
  /** Where conversations are kept: `testMongoEnv(dbName)` in tests, memory in the measurement script. */
  storage: Record<string, string>;
  llm: ScriptedLlm;
  jira: FakeJira;
  /** Fixed ahead when an identity provider must know the page's origin. */
  webPort?: number;
  env?: Record<string, string>;
}

/**
 * The local fleet as `npm start` runs it (Jira agent, supervisor, web chat; every other agent package
 * left out), on free ports, with an enabled agent that is not running (status_page, which has no
 * package), so the page has one to show as down.
 */
export async function startChatFleet(options: ChatFleetOptions): Promise<ChatFleet> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: "warn",
    ...options.storage,
    ...options.llm.env,
    ATLASSIAN_API_URL: options.jira.url,
    ATLASSIAN_EMAIL: options.jira.email,
    ATLASSIAN_TOKEN: options.jira.token,
    ...onlyAgents(repoRoot, ["jira"]),
    // An agent with no package, enabled but down: nothing listens there.
    ENABLE_STATUS_PAGE: "true",
    STATUS_PAGE_AGENT_URL: `http://127.0.0.1:${await freePort()}`,
    SUPERVISOR_PORT: String(await freePort()),
    JIRA_AGENT_PORT: String(await freePort()),
    WEB_PORT: String(options.webPort ?? (await freePort())),
    ...options.env,
  };
  const start = async () => {
    const fleet = await startFleet({ root: repoRoot, env });
    if (!fleet.web) throw new Error(`The web chat did not start: ${JSON.stringify(fleet.failed)}`);
    return fleet;
  };
  const handle: ChatFleet = {
    fleet: await start(),
    webUrl: `http://localhost:${env.WEB_PORT}`,
    env,
    restart: async () => {
      await handle.fleet.stop();
      handle.fleet = await start();
    },
    stop: () => handle.fleet.stop(),
  };
  return handle;
}

export async function startFakes(): Promise<{ llm: ScriptedLlm; jira: FakeJira }> {
  const [llm, jira] = await Promise.all([startScriptedLlm({ script: chatScript() }), startFakeJira()]);
  return { llm, jira };
}
