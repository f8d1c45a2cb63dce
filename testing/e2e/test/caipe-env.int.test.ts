import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { connectAgent } from "@switchboard/a2a-client";
import { onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A CAIPE operator's .env, unchanged but for its blanks: CAIPE's own .env.example (vendored in
// tooling/fleet-config/caipe) with the Jira agent on CAIPE's JIRA_* names, the GitHub agent as a GitHub
// App, and the model on CAIPE's OPENAI_* names, run by `npm start`'s runner.

const root = join(import.meta.dirname, "..", "..", "..");
const caipeFile = join(root, "tooling", "fleet-config", "caipe", "caipe.env.example");
const APP_ID = 31337;
const INSTALLATION = 4242;
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });

describe("a CAIPE .env, its blanks filled in", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let github: FakeGithub;
  const lines: string[] = [];
  let fleet: Awaited<ReturnType<typeof startFleet>>;

  beforeAll(async () => {
    [llm, jira, github] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            ...routeByAgentPrefix(),
            {
              lastUser: /open issues in ([A-Z]+)/,
              reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
            },
            {
              lastUser: /describe (\S+)/,
              reply: (_r, { match }) => callTool("get_repo", { repo: match?.[1] }),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("ok"),
        ),
      }),
      startFakeJira(),
      startFakeGithub({
        app: {
          id: APP_ID,
          installationId: INSTALLATION,
          publicKey: keys.publicKey.export({ type: "spki", format: "pem" }).toString(),
        },
      }),
    ]);
    const caipe = parseEnv(readFileSync(caipeFile, "utf8"));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...caipe,
      // CAIPE's blanks, under CAIPE's names.
      ENABLE_JIRA: "true",
      ENABLE_GITHUB: "true",
      JIRA_URL: jira.url,
      JIRA_EMAIL: jira.email,
      JIRA_API_TOKEN: jira.token,
      GITHUB_APP_ID: String(APP_ID),
      GITHUB_APP_PRIVATE_KEY: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      GITHUB_APP_INSTALLATION_ID: String(INSTALLATION),
      GITHUB_ORG: "acme",
      GITHUB_API_URL: github.url,
      OPENAI_API_KEY: llm.env.OPENAI_API_KEY,
      OPENAI_ENDPOINT: llm.env.OPENAI_BASE_URL,
      OPENAI_MODEL_NAME: llm.env.OPENAI_MODEL_NAME,
      // Agents CAIPE's file has no ENABLE_ line for (npm start runs those by default), left out; free ports.
      ...Object.fromEntries(
        Object.entries(onlyAgents(root, ["jira", "github"])).filter(([name]) => caipe[name] === undefined),
      ),
      SUPERVISOR_PORT: String(await freePort()),
      JIRA_AGENT_PORT: String(await freePort()),
      GITHUB_AGENT_PORT: String(await freePort()),
      WEB_PORT: String(await freePort()),
    };
    fleet = await startFleet({ root, env, onLine: (agent, line) => lines.push(`${agent} ${line}`) });
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    await Promise.all([llm?.close(), jira?.close(), github?.close()]);
  });

  it("starts every agent CAIPE enables, and nothing fails", () => {
    expect(fleet.agents.map((agent) => agent.name).sort()).toEqual(["github", "jira"]);
    expect(fleet.failed).toEqual([]);
  });

  it("routes to Jira on CAIPE's JIRA_* names and to GitHub as the GitHub App", async () => {
    const connection = await connectAgent(fleet.supervisor.url);
    expect((await connection.send({ text: "jira: open issues in PLAT" })).text).toContain("PLAT-1");
    expect((await connection.send({ text: "github: describe platform-api" })).text).toContain(
      "acme/platform-api",
    );
    expect(jira.requests.some((request) => request.path.startsWith("/rest/api/3/search"))).toBe(true);
    expect(
      github.requests.some((request) =>
        request.path.endsWith(`/app/installations/${INSTALLATION}/access_tokens`),
      ),
    ).toBe(true);
  });

  it("signs the web chat's users in on CAIPE's SSO_ENABLED=true, warning that the agents do not check tokens yet", async () => {
    const webUrl = fleet.web?.url as string;
    expect(await (await fetch(`${webUrl}/config.json`)).json()).toEqual({
      signIn: {
        mode: "oidc",
        issuer: "http://localhost:7080/realms/caipe",
        clientId: "caipe-ui",
        scope: "openid profile",
      },
    });
    // CAIPE's file sets no AUTH_MODE: the supervisor would serve every signed-in user as one.
    expect(
      lines.some((line) => line.startsWith("web ") && line.includes("does not ask for their tokens")),
    ).toBe(true);
  });

  it("names at start-up, one line per group, what Switchboard does not use, secrets never shown", () => {
    const supervisor = lines.filter((line) => line.startsWith("supervisor "));
    for (const expected of [
      /COMPOSE_PROFILES=mcp-servers,.*answers to CAIPE's profile names.*; read by docker compose only\./,
      /RAG_ENABLED=true.*they configure CAIPE's RAG server and ingestors.*KNOWLEDGE_SOURCES_FILE.*; ignored/,
      /KEYCLOAK_CLIENT_SECRET.*Switchboard needs no Keycloak admin access/,
      /NEXTAUTH_SECRET.*CAIPE's Next\.js UI/,
    ]) {
      expect(
        supervisor.some((line) => expected.test(line)),
        String(expected),
      ).toBe(true);
    }
    const all = lines.join("\n");
    for (const secret of ["caipe-platform-dev-secret", "agentgateway-config-bridge-dev-token", "changeme"]) {
      expect(all).not.toContain(secret);
    }
  });
});
