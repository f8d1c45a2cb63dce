import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentProcess, type Fleet, onlyAgents, startAgentProcess, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type FakeSlack, startFakeSlack } from "@switchboard-testing/fake-slack";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const packageDir = join(import.meta.dirname, "..");
const SECRET = "generic-secret-for-identity-tests";
/** The on-call trigger's client may reach and read; no other principal may do anything. */
const POLICIES = `
@id("oncall-trigger-reads")
permit(principal == Switchboard::User::"triggers-oncall",
  action in [Switchboard::Action::"reach", Switchboard::Action::"read"], resource);
`;
const TASKS = `
tasks:
  - id: look
    name: Look at PLAT
    prompt: "jira: open issues in PLAT"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET }
    deliver_to: [{ slack: { channel: C0IDENTITY } }]
`;

describe("Triggers under AUTH_MODE=jwt: a run acts as the service's own client, as the policies allow it", () => {
  const storage = testMongoEnv(uniqueDbName("triggers-identity"));
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let slack: FakeSlack;
  let fleet: Fleet;
  const receivers: Record<string, AgentProcess> = {};

  beforeAll(async () => {
    idp = await startIdentityProvider({
      serviceClients: [
        { clientId: "triggers-oncall", clientSecret: "oncall-secret" },
        { clientId: "triggers-other", clientSecret: "other-secret" },
      ],
    });
    [llm, jira, slack] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            ...routeByAgentPrefix(),
            {
              lastUser: /open issues in ([A-Z]+)/,
              reply: (_r, { match }) =>
                callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY key` }),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("ok"),
        ),
      }),
      startFakeJira(),
      startFakeSlack({ users: [] }),
    ]);
    const policyFile = join(mkdtempSync(join(tmpdir(), "triggers-policies-")), "policies.cedar");
    writeFileSync(policyFile, POLICIES);
    const auth = {
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
    };
    fleet = await startFleet({
      root: repoRoot,
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        ...storage,
        ...llm.env,
        ...auth,
        AUTHZ_POLICY_FILE: policyFile,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
        ...onlyAgents(repoRoot, ["jira"]),
        SUPERVISOR_PORT: String(await freePort()),
        JIRA_AGENT_PORT: String(await freePort()),
        WEB_PORT: String(await freePort()),
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_SCOPE: idp.scope,
      },
    });
    const configFile = join(mkdtempSync(join(tmpdir(), "triggers-")), "triggers.yaml");
    writeFileSync(configFile, TASKS);
    const env = (clientId: string, clientSecret: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      LOG_LEVEL: "warn",
      ...storage,
      ...auth,
      HOST: "127.0.0.1",
      PORT: "0",
      TRIGGERS_CONFIG_FILE: configFile,
      CAIPE_URL: fleet.supervisor.url,
      SLACK_INTEGRATION_BOT_TOKEN: slack.botToken,
      SLACK_API_URL: slack.apiUrl,
      LOOK_SECRET: SECRET,
      DYNAMIC_AGENTS_OAUTH2_TOKEN_URL: idp.tokenUrl,
      DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: clientId,
      DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET: clientSecret,
      DYNAMIC_AGENTS_OAUTH2_SCOPE: "switchboard",
    });
    const [oncall, other, wrong] = await Promise.all([
      startAgentProcess(packageDir, { env: env("triggers-oncall", "oncall-secret") }),
      startAgentProcess(packageDir, { env: env("triggers-other", "other-secret") }),
      startAgentProcess(packageDir, { env: env("triggers-oncall", "not-the-secret") }),
    ]);
    Object.assign(receivers, { oncall, other, wrong });
  });

  afterAll(async () => {
    await Promise.all(Object.values(receivers).map((receiver) => receiver.kill("SIGTERM")));
    await fleet?.stop();
    await Promise.all([llm?.close(), jira?.close(), slack?.close(), idp?.close()]);
  });

  /** Sends a signed delivery `ref` to a receiver; resolves with the replies in its run's Slack thread. */
  async function deliver(receiver: AgentProcess, ref: string) {
    const body = JSON.stringify({ ref });
    const t = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(`${receiver.url}/api/v1/hooks/look`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-timestamp": t,
        "x-webhook-signature-256": `sha256=${createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex")}`,
      },
      body,
    });
    expect(answer.status).toBe(202);
    const { run_id } = (await answer.json()) as { run_id: string };
    for (;;) {
      const { runs } = (await (await fetch(`${receiver.url}/api/v1/tasks/look/runs`)).json()) as {
        runs: { run_id: string; status: string; error?: string; thread?: { ts: string } }[];
      };
      const run = runs.find((r) => r.run_id === run_id);
      if (run && run.status !== "running") {
        const replies = slack.workspace.thread("C0IDENTITY", run.thread?.ts as string).slice(1);
        return { run, text: replies.map((m) => m.text).join("\n") };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("the on-call trigger's client reads PLAT's issues, as the policy allows it", async () => {
    const { run, text } = await deliver(receivers.oncall as AgentProcess, "allowed");
    expect(run.status, text).toBe("success");
    expect(text).toMatch(/PLAT-\d+/);
  });

  it("another client, which no policy names, gets nothing from the agents", async () => {
    const { text } = await deliver(receivers.other as AgentProcess, "not-allowed");
    expect(text).not.toMatch(/PLAT-\d+/);
    expect(text).toMatch(/triggers-other|may not|not allowed|denied/i);
  });

  it("a wrong client secret fails the run naming the settings, never showing the secret", async () => {
    const { run, text } = await deliver(receivers.wrong as AgentProcess, "wrong-secret");
    expect(run.status).toBe("failed");
    expect(text).toMatch(/DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET/);
    expect(`${text}${run.error}`).not.toContain("not-the-secret");
  });
});
