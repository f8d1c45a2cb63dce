import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Message, type Task, taskStateToJSON } from "@a2a-js/sdk";
import { type Client, ClientFactory, type RequestOptions } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { A2AService } from "@a2a-js/sdk/server/grpc";
import { credentials, Metadata, makeGenericClientConstructor } from "@grpc/grpc-js";
import { connectAgent } from "@switchboard/a2a-client";
import { AuthenticatedCaller, HopTokenIssuer } from "@switchboard/agent-runtime";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import {
  type AgentProcess,
  freePort,
  type Listening,
  startGrpcFirstCards,
} from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { heldReply, rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caipeAppConfig } from "./caipe-app-config.js";
import { startHost, writeConfig } from "./host-process.js";

/** A configured agent anyone signed in may use, and a team's that only team-b's members may see. */
const agentOf = (id: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  description: `The ${id}`,
  system_prompt: prompt,
  model_id: "gpt-4o-mini",
  model_provider: "azure-openai",
  visibility: "global",
  allowed_tools: {},
  subagents: [],
  enabled: true,
  ...extra,
});
const openAgent = agentOf("open-agent", "You are the open agent.");
const teamAgent = agentOf("team-b-agent", "You help team B.", {
  visibility: "team",
  owner_team_slug: "team-b",
});

/** A client on the SDK's gRPC transport only, made from an agent's card (its gRPC interface and tenant). */
function grpcClientFor(agentUrl: string): Promise<Client> {
  return new ClientFactory({
    transports: [new GrpcTransportFactory()],
    preferredTransports: ["GRPC"],
  }).createFromUrl(agentUrl);
}

const as = (token: string | undefined): RequestOptions =>
  token ? { serviceParameters: { authorization: `Bearer ${token}` } } : {};

const message = (text: string) =>
  Message.fromJSON({
    messageId: randomUUID(),
    role: "ROLE_USER",
    contextId: `ctx-${randomUUID()}`,
    parts: [{ text }],
  });

const sendRequest = (text: string, tenant = "") => ({
  tenant,
  message: message(text),
  configuration: undefined,
  metadata: undefined,
});

const stateOf = (task: Task) => taskStateToJSON(task.status?.state ?? 0);

/** How a call failed, as the SDK's client tells it: its error's class and message. */
async function failure(call: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await call;
  } catch (error) {
    return { kind: (error as Error).constructor.name, message: (error as Error).message };
  }
  throw new Error("the call succeeded");
}

/** A raw gRPC client of the host's A2A service: the status code itself, as any gRPC stack reads it. */
async function rawCall(
  address: string,
  method: "getTask" | "getExtendedAgentCard",
  tenant: string,
  token: string | undefined,
): Promise<{ code: number; details: string } | null> {
  const raw = new RawA2A(address, credentials.createInsecure()) as unknown as Record<
    typeof method,
    (
      request: unknown,
      metadata: Metadata,
      callback: (error: { code: number; details: string } | null) => void,
    ) => void
  > & { close(): void };
  const metadata = new Metadata();
  if (token) metadata.set("authorization", `Bearer ${token}`);
  try {
    return await new Promise((resolve) => raw[method]({ tenant, id: "task-1" }, metadata, resolve));
  } finally {
    raw.close();
  }
}

const RawA2A = makeGenericClientConstructor(A2AService, "A2AService");
const NOT_FOUND = 5;
const UNAUTHENTICATED = 16;

describe("A2A over gRPC for every configured agent, on the host's one gRPC port", () => {
  const dir = scratchDir("dynamic-agents-grpc");
  const configFile = join(dir, "app-config.yaml");
  const held = heldReply(say("Done at last."));
  const keys = hopKeys();
  let llm: ScriptedLlm;
  let idp: IdentityProvider;
  let host: AgentProcess;
  let grpcPort: number;
  let open: Client;
  const tokens: Record<string, string> = {};
  /** The model requests that carried `text` (each with the system prompt of the agent that ran it). */
  const modelSaw = (text: string) =>
    llm.requests.map((request) => JSON.stringify(request)).filter((request) => request.includes(text));

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules([{ lastUser: /^hold/, reply: held.reply }], say("Answered over gRPC.")),
    });
    held.hold();
    idp = await startIdentityProvider({
      users: {
        admin: { groups: ["employees", "platform-admins"] },
        dev: { groups: ["employees", "team-a"] },
        bee: { groups: ["employees", "team-b"] },
      },
    });
    for (const user of ["admin", "dev", "bee"]) tokens[user] = await signIn(idp, user);
    writeConfig(configFile, caipeAppConfig({ agents: [openAgent, teamAgent] }));
    const port = await freePort();
    grpcPort = await freePort();
    host = await startHost({
      ...testMongoEnv(uniqueDbName("dynamic_grpc")),
      PORT: String(port),
      AGENT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      A2A_GRPC_PORT: String(grpcPort),
      ...llm.envFor("azure-openai"),
      APP_CONFIG_FILE: configFile,
      // CAIPE's example servers are not running here: the agents that allow them are refused, others serve.
      GITHUB_MCP_URL: "http://127.0.0.1:9/mcp",
      ARGOCD_MCP_URL: "http://127.0.0.1:9/mcp",
      RAG_SERVER_MCP_URL: "http://127.0.0.1:9/mcp",
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      RBAC_ADMIN_GROUPS: "platform-admins",
      AUTH_SUPERVISOR_PUBLIC_KEY: keys.AUTH_SUPERVISOR_PUBLIC_KEY,
    });
    open = await grpcClientFor(`${host.url}/agents/open-agent/`);
  }, 120_000);

  afterAll(async () => {
    held.release();
    await host?.kill("SIGTERM");
    await idp?.close();
    await llm?.close();
  });

  it("names the host's gRPC port on each agent's card, with the agent's id as its tenant", async () => {
    for (const id of ["open-agent", "team-b-agent"]) {
      // A team's agent's card is its members' to read (a global one's anyone's).
      const card = (await (
        await fetch(`${host.url}/agents/${id}/.well-known/agent-card.json`, {
          headers: { authorization: `Bearer ${tokens.bee}` },
        })
      ).json()) as {
        supportedInterfaces: Array<{
          url: string;
          protocolBinding: string;
          tenant?: string;
          protocolVersion: string;
        }>;
      };
      const grpc = card.supportedInterfaces.filter((i) => i.protocolBinding === "GRPC");
      // Protocol 0.3's gRPC has no tenant to route by: only 1.0 is offered on a shared port.
      expect(grpc).toEqual([
        { url: `127.0.0.1:${grpcPort}`, protocolBinding: "GRPC", tenant: id, protocolVersion: "1.0" },
      ]);
    }
    expect(open.protocolVersion).toBe("1.0");
  });

  it("answers a configured agent over gRPC: send, stream, get and cancel", async () => {
    const text = `hello ${randomUUID()}`;
    const sent = (await open.sendMessage(sendRequest(text), as(tokens.dev))) as Task;
    expect(stateOf(sent)).toBe("TASK_STATE_COMPLETED");
    expect(JSON.stringify(sent.artifacts)).toContain("Answered over gRPC.");
    // The tenant reached the agent it names: its own prompt went to the model.
    expect(modelSaw(text).some((request) => request.includes("You are the open agent."))).toBe(true);

    const states: string[] = [];
    for await (const event of open.sendMessageStream(sendRequest("hello again"), as(tokens.dev))) {
      if (event.payload?.$case === "statusUpdate")
        states.push(taskStateToJSON(event.payload.value.status?.state ?? 0));
    }
    expect(states).toContain("TASK_STATE_WORKING");
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");

    const read = await open.getTask({ tenant: "", id: sent.id, historyLength: undefined }, as(tokens.dev));
    expect(stateOf(read)).toBe("TASK_STATE_COMPLETED");

    // A turn held at the model, canceled over gRPC, and read back canceled.
    const stream = open.sendMessageStream(sendRequest("hold on"), as(tokens.dev));
    let taskId = "";
    for await (const event of stream) {
      const payload = event.payload;
      taskId =
        payload?.$case === "task"
          ? payload.value.id
          : payload?.$case === "statusUpdate"
            ? payload.value.taskId
            : "";
      if (taskId) break;
    }
    const canceled = await open.cancelTask({ tenant: "", id: taskId, metadata: undefined }, as(tokens.dev));
    expect(stateOf(canceled)).toBe("TASK_STATE_CANCELED");
    const after = await open.getTask({ tenant: "", id: taskId, historyLength: undefined }, as(tokens.dev));
    expect(stateOf(after)).toBe("TASK_STATE_CANCELED");
  });

  it("answers a team's agent to its members, and NOT_FOUND to anyone else, exactly as a tenant naming no agent", async () => {
    const text = `hi ${randomUUID()}`;
    const bee = (await open.sendMessage(sendRequest(text, "team-b-agent"), as(tokens.bee))) as Task;
    expect(stateOf(bee)).toBe("TASK_STATE_COMPLETED");
    expect(modelSaw(text).some((request) => request.includes("You help team B."))).toBe(true);

    // Every method, as dev (outside team-b), to the team's agent and to no agent at all: one answer.
    const outsiderText = `let me in ${randomUUID()}`;
    const calls = (tenant: string) => [
      open.sendMessage(sendRequest(outsiderText, tenant), as(tokens.dev)),
      open.getTask({ tenant, id: bee.id, historyLength: undefined }, as(tokens.dev)),
      open.cancelTask({ tenant, id: bee.id, metadata: undefined }, as(tokens.dev)),
      (async () => {
        for await (const _ of open.sendMessageStream(sendRequest(outsiderText, tenant), as(tokens.dev))) {
          // nothing comes
        }
      })(),
    ];
    const team = await Promise.all(calls("team-b-agent").map(failure));
    const nobody = await Promise.all(calls("no-such-agent").map(failure));
    expect(
      team.map((refused) => ({ ...refused, message: refused.message.replace("team-b-agent", "<id>") })),
    ).toEqual(
      nobody.map((refused) => ({ ...refused, message: refused.message.replace("no-such-agent", "<id>") })),
    );
    expect(team[0]?.message).toContain('No agent "team-b-agent" here');
    // The status itself, and the extended card (which the SDK's client asks for only when a card offers one).
    const raw = await Promise.all(
      ["team-b-agent", "no-such-agent"].flatMap((tenant) =>
        (["getTask", "getExtendedAgentCard"] as const).map((method) =>
          rawCall(`127.0.0.1:${grpcPort}`, method, tenant, tokens.dev),
        ),
      ),
    );
    expect(raw.map((error) => error?.code)).toEqual([NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND]);
    expect(raw[1]?.details.replace("team-b-agent", "<id>")).toBe(
      raw[3]?.details.replace("no-such-agent", "<id>"),
    );
    expect(modelSaw(outsiderText)).toEqual([]);
    // The team's task is untouched by the outsider's cancel.
    const still = await open.getTask(
      { tenant: "team-b-agent", id: bee.id, historyLength: undefined },
      as(tokens.bee),
    );
    expect(stateOf(still)).toBe("TASK_STATE_COMPLETED");
  });

  it("refuses a forged token and a missing one alike, whether the tenant is a team's agent, a global one or none", async () => {
    const forged = `${tokens.bee?.slice(0, -4)}AAAA`;
    const text = `pwned ${randomUUID()}`;
    for (const token of [forged, undefined]) {
      const answers = await Promise.all(
        ["team-b-agent", "open-agent", "no-such-agent"].map((tenant) =>
          failure(open.sendMessage(sendRequest(text, tenant), as(token))),
        ),
      );
      expect(answers[0]?.message).toContain("Unauthorized: ");
      expect(answers).toEqual([answers[0], answers[0], answers[0]]);
      const raw = await Promise.all(
        ["team-b-agent", "no-such-agent"].map((tenant) =>
          rawCall(`127.0.0.1:${grpcPort}`, "getTask", tenant, token),
        ),
      );
      expect(raw.map((error) => error?.code)).toEqual([UNAUTHENTICATED, UNAUTHENTICATED]);
    }
    expect(modelSaw(text)).toEqual([]);
  });

  it("takes a supervisor's hop token at the agent it was signed for alone, and its directory token nowhere", async () => {
    const supervisor = HopTokenIssuer.fromPem(keys.AUTH_HOP_SIGNING_KEY, "supervisor");
    const claims = JSON.parse(Buffer.from(tokens.bee?.split(".")[1] ?? "", "base64url").toString());
    const bee = new AuthenticatedCaller("bee", tokens.bee as string, claims);
    const forTeam = await supervisor.sign(bee, "team-b-agent");
    const text = `hop ${randomUUID()}`;
    const hop = (await open.sendMessage(sendRequest(text, "team-b-agent"), as(forTeam))) as Task;
    expect(stateOf(hop)).toBe("TASK_STATE_COMPLETED");
    // The same token replayed at another agent, one made for another agent, and the directory token.
    const forOpen = await supervisor.sign(bee, "open-agent");
    const directory = await supervisor.signDirectory("dynamic-agents");
    const replayed = `replayed ${randomUUID()}`;
    const refused = await Promise.all([
      failure(open.sendMessage(sendRequest(replayed, "open-agent"), as(forTeam))),
      failure(open.sendMessage(sendRequest(replayed, "no-such-agent"), as(forTeam))),
      failure(open.sendMessage(sendRequest(replayed, "team-b-agent"), as(forOpen))),
      failure(open.sendMessage(sendRequest(replayed, "team-b-agent"), as(directory))),
      failure(open.sendMessage(sendRequest(replayed, "open-agent"), as(directory))),
    ]);
    for (const answer of refused) expect(answer.message).toContain("Unauthorized: ");
    expect(modelSaw(replayed)).toEqual([]);
  });

  it("stops answering an agent deleted through the API at once", async () => {
    const id = `api-${randomUUID().slice(0, 8)}`;
    const api = (path: string, init: RequestInit) =>
      fetch(`${host.url}/api/v1${path}`, {
        ...init,
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens.admin}` },
      });
    const created = await api("/agents", {
      method: "POST",
      body: JSON.stringify(agentOf(id, "Made by API.")),
    });
    expect(created.status).toBeLessThan(300);
    const made = (await open.sendMessage(sendRequest("hello", id), as(tokens.dev))) as Task;
    expect(stateOf(made)).toBe("TASK_STATE_COMPLETED");

    expect((await api(`/agents/${id}`, { method: "DELETE" })).status).toBeLessThan(300);
    const gone = await failure(
      open.getTask({ tenant: id, id: made.id, historyLength: undefined }, as(tokens.dev)),
    );
    expect(gone.message).toContain(`No agent "${id}" here`);
    expect((await rawCall(`127.0.0.1:${grpcPort}`, "getTask", id, tokens.dev))?.code).toBe(NOT_FOUND);
  });

  describe("the supervisor's client", () => {
    // An agent whose card prefers gRPC: its own card, with its gRPC interfaces first.
    let cards: Listening;
    let cardsUrl: string;

    beforeAll(async () => {
      cards = await startGrpcFirstCards(host.url);
      cardsUrl = cards.url;
    });
    afterAll(() => cards.close());

    it("reaches a configured agent over gRPC when its card prefers it, by its tenant, with the caller's token", async () => {
      const bee = await connectAgent(`${cardsUrl}/agents/team-b-agent`, {
        token: tokens.bee,
        cardRetries: 0,
      });
      expect(bee.card.url).toBe(`127.0.0.1:${grpcPort}`);
      const text = `hi ${randomUUID()}`;
      const answer = await bee.send({ text, contextId: `ctx-${randomUUID()}` });
      expect(answer.state).toBe("completed");
      expect(answer.text).toBe("Answered over gRPC.");
      expect(modelSaw(text).some((request) => request.includes("You help team B."))).toBe(true);

      // An outsider reads no card of it; given one (read as a member), the gRPC call is refused.
      await expect(
        connectAgent(`${cardsUrl}/agents/team-b-agent`, { token: tokens.dev, cardRetries: 0 }),
      ).rejects.toThrow(/HTTP 404/);
      const dev = await connectAgent(`${cardsUrl}/agents/team-b-agent`, {
        token: tokens.dev,
        cardToken: tokens.bee,
        cardRetries: 0,
      });
      await expect(dev.send({ text: "hi", contextId: `ctx-${randomUUID()}` })).rejects.toThrow(
        /team-b-agent/,
      );
    });
  });
});
