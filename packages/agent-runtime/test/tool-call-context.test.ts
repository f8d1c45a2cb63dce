import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Access } from "../src/authz/access.js";
import type { Principal } from "../src/authz/principal.js";
import type { ToolCallContext } from "../src/context/tool-call-context.js";
import type { TurnContext } from "../src/context/turn-context.js";
import { LinkedTokens } from "../src/credentials/linked-tokens.js";
import { guardedTools } from "../src/graph/guarded-tools.js";
import { defineTool } from "../src/tools/define-tool.js";
import { VendorClient } from "../src/vendor-client/vendor-client.js";

const github = { vendor: "github", title: "GitHub", hint: "a personal access token" };

/** A vendor whose client is the token it was made with: what a call ran with, plainly. */
const vendor = new VendorClient(
  {
    vendor: "GitHub",
    code: "github",
    settings: (env) => ({ token: env.GITHUB_TOKEN ?? "" }),
    connect: ({ token }) => token,
    names: () => ({ url: "https://github.test", credentials: "GITHUB_TOKEN", address: "GITHUB_API_URL" }),
    linkedToken: (token) => ({ GITHUB_TOKEN: token }),
  },
  { GITHUB_TOKEN: "service-token" },
);

const person = (subject: string): Principal => ({ subject, groups: [], authenticated: true });

function turnOf(principal: Principal, contextId: string, reported: string[]): TurnContext {
  return {
    contextId,
    taskId: `task-${contextId}`,
    threadId: `thread-${contextId}`,
    principal,
    report: ({ text }) => reported.push(text),
    stored: async () => undefined,
    signal: new AbortController().signal,
  };
}

describe("a tool's call context, passed to run(args, ctx)", () => {
  it("holds the call's principal and the credential its guard chose; two turns at once each see their own", async () => {
    const tokens = await LinkedTokens.open(undefined, "github", github, randomBytes(32));
    await tokens.link("alice", "ghp_alice_own");
    const access = new Access("github", undefined, undefined, [], tokens);

    // Each call waits until both have started, so the two run interleaved, not one after the other.
    let running = 0;
    let bothRunning: () => void = () => undefined;
    const bothStarted = new Promise<void>((resolve) => {
      bothRunning = resolve;
    });
    const seen: ToolCallContext[] = [];
    const whoami = defineTool({
      name: "whoami",
      description: "Who the call runs as",
      schema: z.object({}),
      run: async (_args, ctx) => {
        running += 1;
        if (running === 2) bothRunning();
        await bothStarted;
        seen.push(ctx);
        ctx.report({ text: `running for ${ctx.principal.subject}` });
        const token = await vendor.call(ctx, async (client) => client);
        return `${ctx.principal.subject} ${ctx.contextId} ${token}`;
      },
    });
    const tools = guardedTools([whoami], access);
    const aliceReports: string[] = [];
    const bobReports: string[] = [];
    const call = (turn: TurnContext, id: string) =>
      tools.call({ name: "whoami", args: {}, id, type: "tool_call" }, { context: turn });

    const [alice, bob] = await Promise.all([
      call(turnOf(person("alice"), "c-alice", aliceReports), "1"),
      call(turnOf(person("bob"), "c-bob", bobReports), "2"),
    ]);

    // Alice linked a token of her own: her call runs with it; Bob's with the service's.
    expect(alice.content).toBe("alice c-alice ghp_alice_own");
    expect(bob.content).toBe("bob c-bob service-token");
    const bySubject = new Map(seen.map((ctx) => [ctx.principal.subject, ctx]));
    expect(bySubject.get("alice")?.credential).toEqual({ vendor: "github", token: "ghp_alice_own" });
    expect(bySubject.get("bob")?.credential).toBeUndefined();
    expect(bySubject.get("alice")?.threadId).toBe("thread-c-alice");
    // Progress goes to the turn the call belongs to.
    expect(aliceReports).toEqual(["running for alice"]);
    expect(bobReports).toEqual(["running for bob"]);
  });

  it("outside a guarded call, runs as the local principal with the service's credential", async () => {
    const whoami = defineTool({
      name: "whoami",
      description: "Who the call runs as",
      schema: z.object({}),
      run: async (_args, ctx) =>
        `${ctx.principal.subject} ${await vendor.call(ctx, async (client) => client)}`,
    });
    expect(await whoami.tool.invoke({})).toBe("local service-token");
  });
});
