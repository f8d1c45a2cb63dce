import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createLogger } from "@switchboard/common";
import { type Fleet, onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import type { Ephemeral, FakeSlack } from "@switchboard-testing/fake-slack";
import { freePort } from "@switchboard-testing/test-agents";
import { type BrowsedPage, browse, type IdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { type SlackBot, startSlackBot } from "../src/app.js";
import { readSlackBotSettings } from "../src/env.js";

export const repoRoot = join(import.meta.dirname, "..", "..", "..");

/**
 * The scripted model behind the fleet: "<agent>: <request>" goes to that agent; the Jira agent lists
 * issues and creates them (a change it asks to confirm); "what did I ask" is answered from the
 * conversation the supervisor loaded.
 */
function script() {
  return rules(
    [
      { toolOffered: "call_agent", lastUser: /what did I ask/, reply: recallUserMessages() },
      ...routeByAgentPrefix(),
      {
        toolOffered: "call_agent",
        reply: say("Tell me which agent to ask, e.g. jira: open issues in PLAT."),
      },
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

export interface RelayFleet {
  fleet: Fleet;
  llm: ScriptedLlm;
  jira: FakeJira;
  webUrl: string;
  supervisorUrl: string;
  stop(): Promise<void>;
}

/** The supervisor, the Jira agent and the web chat as `npm start` runs them, signing in at `idp`. */
export async function startRelayFleet(options: {
  storage: Record<string, string>;
  idp?: IdentityProvider;
  webPort: number;
  slackBotPort: number;
  tokenIntervalMs?: number;
  latencyMs?: number;
  /** More settings for every service of the fleet (a policy file, say). */
  env?: NodeJS.ProcessEnv;
}): Promise<RelayFleet> {
  const [llm, jira] = await Promise.all([
    startScriptedLlm({
      script: script(),
      tokenIntervalMs: options.tokenIntervalMs ?? 0,
      latencyMs: options.latencyMs ?? 0,
    }),
    startFakeJira(),
  ]);
  const idp = options.idp;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: "warn",
    ...options.storage,
    ...llm.env,
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
    ...onlyAgents(repoRoot, ["jira"]),
    SUPERVISOR_PORT: String(await freePort()),
    JIRA_AGENT_PORT: String(await freePort()),
    WEB_PORT: String(options.webPort),
    SLACK_BOT_URL: `http://127.0.0.1:${options.slackBotPort}`,
    ...options.env,
    ...(idp
      ? {
          AUTH_MODE: "jwt",
          AUTH_JWKS_URL: idp.jwksUrl,
          AUTH_ISSUER: idp.issuer,
          AUTH_AUDIENCE: idp.audience,
          OIDC_ISSUER: idp.issuer,
          OIDC_CLIENT_ID: idp.clientId,
          OIDC_SCOPE: idp.scope,
        }
      : {}),
  };
  const fleet = await startFleet({ root: repoRoot, env });
  if (!fleet.web) throw new Error(`The web chat did not start: ${JSON.stringify(fleet.failed)}`);
  return {
    fleet,
    llm,
    jira,
    webUrl: `http://localhost:${options.webPort}`,
    supervisorUrl: fleet.supervisor.url,
    stop: async () => {
      await fleet.stop();
      await Promise.all([llm.close(), jira.close()]);
    },
  };
}

/** A key for sealing linked users' refresh tokens, one per test run. */
export const SEALING_KEY = randomBytes(32).toString("hex");

/** The relay's settings as its env would give them, pointed at the fake workspace and the fleet. */
export function slackBotEnv(options: {
  slack: FakeSlack;
  storage: Record<string, string>;
  supervisorUrl: string;
  webUrl: string;
  port: number;
  idp?: IdentityProvider;
  mode?: "socket" | "http";
  signingSecret?: string;
  updateIntervalMs?: number;
}): NodeJS.ProcessEnv {
  return {
    ...options.storage,
    PORT: String(options.port),
    HOST: "127.0.0.1",
    SLACK_INTEGRATION_BOT_TOKEN: options.slack.botToken,
    SLACK_INTEGRATION_APP_TOKEN: options.slack.appToken,
    SLACK_INTEGRATION_BOT_MODE: options.mode ?? "socket",
    ...(options.signingSecret ? { SLACK_INTEGRATION_SIGNING_SECRET: options.signingSecret } : {}),
    SLACK_API_URL: options.slack.apiUrl,
    CAIPE_URL: options.supervisorUrl,
    CAIPE_UI_BASE_URL: options.webUrl,
    SLACK_INTEGRATION_UPDATE_INTERVAL_MS: String(options.updateIntervalMs ?? 50),
    SLACK_INTEGRATION_TURN_TIMEOUT_SECONDS: "60",
    ...(options.idp
      ? {
          AUTH_MODE: "jwt",
          OIDC_ISSUER: options.idp.issuer,
          OIDC_CLIENT_ID: options.idp.clientId,
          OIDC_SCOPE: options.idp.scope,
          CREDENTIALS_ENCRYPTION_KEY: SEALING_KEY,
          // Forget-me (DELETE /me) verifies the user's token as the agents do.
          AUTH_JWKS_URL: options.idp.jwksUrl,
          AUTH_ISSUER: options.idp.issuer,
          AUTH_AUDIENCE: options.idp.audience,
        }
      : {}),
  };
}

export function startBot(env: NodeJS.ProcessEnv): Promise<SlackBot> {
  return startSlackBot(
    readSlackBotSettings(env),
    createLogger({ level: "warn", base: { agent: "slack-bot" } }),
  );
}

/** Waits until `check` returns something (not undefined or false), or fails naming `what`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The Slack relay's confirm and cancel buttons after a sign-in (slack/link-confirmation.ts). */
export const CONFIRM_LINK = "switchboard_link_confirm";
export const CANCEL_LINK = "switchboard_link_cancel";

/** The newest one-time link whispered to `user`, after `since` ephemerals. */
export async function linkWhispered(slack: FakeSlack, user: string, since = 0): Promise<string> {
  const whisper = await until(`the link whispered to ${user}`, () =>
    slack.workspace.ephemerals
      .slice(since)
      .findLast((e) => e.user === user && e.text.includes("/slack/link/")),
  );
  const link = /(http:\/\/\S+\/slack\/link\/[\w-]+)/.exec(whisper.text)?.[1];
  if (!link) throw new Error(`No link in: ${whisper.text}`);
  return link;
}

/** The "Yes, this is me" question shown to `user` after `since` ephemerals. */
export function confirmationFor(slack: FakeSlack, user: string, since = 0): Promise<Ephemeral> {
  return until(`the link confirmation shown to ${user}`, () =>
    slack.workspace.ephemerals
      .slice(since)
      .findLast((e) => e.user === user && JSON.stringify(e.blocks ?? []).includes(CONFIRM_LINK)),
  );
}

/**
 * Links a Slack user the whole way, as a person would: the link whispered to them is opened and
 * signed in as `subject` (without a browser), then they press "Yes, this is me" in Slack. Returns
 * the link page and the link (used up).
 */
export async function linkSlackUser(
  slack: FakeSlack,
  user: string,
  subject: string,
  since = 0,
): Promise<{ link: string; page: BrowsedPage }> {
  const link = await linkWhispered(slack, user, since);
  const mark = slack.workspace.ephemerals.length;
  const page = await browse(link, subject);
  if (page.status !== 200) throw new Error(`The link page answered ${page.status}: ${page.text}`);
  const question = await confirmationFor(slack, user, mark);
  await slack.pressEphemeral(user, question, CONFIRM_LINK);
  await until(`${user}'s linked notice`, () =>
    slack.workspace.ephemerals.slice(mark).find((e) => e.user === user && e.text.includes("You are linked")),
  );
  return { link, page };
}
