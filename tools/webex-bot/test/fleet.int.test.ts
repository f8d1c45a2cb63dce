import { join } from "node:path";
import { type Fleet, onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeWebex, startFakeWebex } from "@switchboard-testing/fake-webex";
import { freePort } from "@switchboard-testing/test-agents";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../slack-bot/test/relay-fleet.js";

const repoRoot = join(import.meta.dirname, "..", "..", "..");

describe("npm start with WEBEX_WEBHOOK_SECRET set runs the Webex bot beside the supervisor", () => {
  let webex: FakeWebex;
  let llm: ScriptedLlm;
  let fleet: Fleet;
  let botPort: number;

  beforeAll(async () => {
    [webex, llm] = await Promise.all([
      startFakeWebex({ users: [{ name: "alice", email: "alice@example.com", displayName: "Alice" }] }),
      startScriptedLlm({ script: rules([], say("Hello from Switchboard, in Webex.")) }),
    ]);
    botPort = await freePort();
    fleet = await startFleet({
      root: repoRoot,
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        ...testMongoEnv(uniqueDbName("webex-fleet")),
        ...llm.env,
        ...onlyAgents(repoRoot, []),
        SUPERVISOR_PORT: String(await freePort()),
        WEB_PORT: String(await freePort()),
        WEBEX_BOT_PORT: String(botPort),
        WEBEX_TOKEN: webex.bot.token,
        WEBEX_WEBHOOK_SECRET: "fleet-webhook-secret-0123456789",
        WEBEX_WEBHOOK_URL: `http://127.0.0.1:${botPort}`,
        WEBEX_API_URL: webex.apiUrl,
      },
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await Promise.all([webex?.close(), llm?.close()]);
  });

  it("starts it on WEBEX_BOT_PORT, wired to the fleet's supervisor, and it answers a mention in the thread", async () => {
    expect(fleet.failed).toEqual([]);
    expect(fleet.webexBot?.url).toBe(`http://localhost:${botPort}`);
    const ready = (await (await fetch(`${fleet.webexBot?.url}/ready`)).json()) as Record<string, string>;
    expect(ready).toMatchObject({ status: "ready", supervisor: "up" });
    expect(webex.webhooks.map((hook) => hook.targetUrl)).toEqual([
      `http://127.0.0.1:${botPort}/webex/events`,
      `http://127.0.0.1:${botPort}/webex/events`,
    ]);
    const space = webex.space("Fleet");
    const { message } = await webex.say("alice", space, "hello", { mention: true });
    const answer = await until("the answer in the thread", () =>
      webex.botReplies(message.id).find((m) => m.text.includes("Hello from Switchboard")),
    );
    expect(answer.parentId).toBe(message.id);
  });
});
