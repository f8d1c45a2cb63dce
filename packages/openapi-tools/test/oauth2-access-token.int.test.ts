// biome-ignore-all lint/suspicious/noTemplateCurlyInString: auth values refer to variables as ${VAR}, on purpose.
import { PassThrough } from "node:stream";
import type { AgentTool } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { type OpenApiFake, startOpenApiFake } from "@switchboard-testing/fake-vendors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiTools } from "../src/index.js";

/**
 * An API whose schemes are OAuth2 flows a user or an app signs in with (Box's authorization code,
 * Netlify's implicit flow, a password flow): the agent holds an access token obtained elsewhere and
 * sends it as a bearer token, as the flows' tokens are sent.
 */
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Files", version: "1" },
  paths: {
    "/files": {
      get: {
        operationId: "listFiles",
        security: [{ userToken: ["files:read"] }],
        responses: {
          200: {
            description: "ok",
            content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
          },
        },
      },
    },
    "/me": {
      get: {
        operationId: "getMe",
        security: [{ appToken: [] }],
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/login": {
      get: {
        operationId: "getLogin",
        security: [{ signIn: [] }],
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      userToken: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: "https://account.files.example.com/authorize",
            tokenUrl: "https://api.files.example.com/oauth2/token",
            scopes: { "files:read": "Read files" },
          },
        },
      },
      appToken: {
        type: "oauth2",
        flows: { implicit: { authorizationUrl: "https://files.example.com/authorize", scopes: {} } },
      },
      signIn: {
        type: "oauth2",
        flows: { password: { tokenUrl: "https://files.example.com/token", scopes: {} } },
      },
    },
  },
};

const SECRETS = { FILES_ACCESS_TOKEN: "xoxb-user-token-41d9", FILES_APP_TOKEN: "app-token-8c2f" };

function capturedLogger() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { logger: createLogger({ level: "debug", destination: stream }), output: () => text };
}

function byName(tools: AgentTool[], name: string): AgentTool {
  const tool = tools.find((one) => one.tool.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

async function run(tool: AgentTool, args: Record<string, unknown> = {}): Promise<string> {
  try {
    return String(await tool.tool.invoke(args));
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

describe("OAuth2 flows other than client credentials: an access token obtained elsewhere, sent as bearer", () => {
  let fake: OpenApiFake;
  const log = capturedLogger();

  beforeAll(async () => {
    fake = await startOpenApiFake({
      vendor: "Files",
      document: DOCUMENT as never,
      credentials: {
        userToken: SECRETS.FILES_ACCESS_TOKEN,
        appToken: SECRETS.FILES_APP_TOKEN,
        signIn: SECRETS.FILES_ACCESS_TOKEN,
      },
    });
  });
  afterAll(() => fake?.close());

  it("authorization code, implicit and password flows each send their token as bearer; no token is asked for", async () => {
    const api = await openApiTools({
      document: DOCUMENT,
      baseUrl: fake.url,
      env: SECRETS,
      auth: {
        userToken: "${FILES_ACCESS_TOKEN}",
        appToken: "${FILES_APP_TOKEN}",
        signIn: "${FILES_ACCESS_TOKEN}",
      },
      logger: log.logger,
    });
    const tools = api.tools();
    for (const [tool, scheme] of [
      ["list_files", "userToken"],
      ["get_me", "appToken"],
      ["get_login", "signIn"],
    ] as const) {
      expect(await run(byName(tools, tool))).not.toMatch(/^error/);
      expect(fake.requests.at(-1)?.status).toBe(200);
      // (One Authorization header answers to every bearer scheme: the fake names each whose value it is.)
      expect(fake.received.at(-1)?.credentials).toContainEqual({ scheme, how: "oauth2 bearer", valid: true });
    }
    // Nothing went to a token endpoint: the token is the operator's, obtained outside the agent.
    expect(fake.requests.map(({ path }) => path)).toEqual(["/files", "/me", "/login"]);
    for (const secret of Object.values(SECRETS)) expect(log.output()).not.toContain(secret);
  });

  it("attack: a forged token is refused by the API, and the message shows no token", async () => {
    const api = await openApiTools({
      document: DOCUMENT,
      baseUrl: fake.url,
      env: { FILES_ACCESS_TOKEN: "forged-token-0000" },
      auth: { userToken: "${FILES_ACCESS_TOKEN}" },
      logger: log.logger,
    });
    const answer = await run(byName(api.tools(), "list_files"));
    expect(answer).toMatch(/401/);
    expect(answer).not.toContain("forged-token-0000");
    expect(fake.received.at(-1)?.credentials).toContainEqual({
      scheme: "userToken",
      how: "oauth2 bearer",
      valid: false,
    });
    expect(fake.received.at(-1)?.credentials?.some(({ valid }) => valid)).toBe(false);
  });

  it("an unset token variable is an error naming it; a secret written in place of ${VAR} is refused", async () => {
    const api = await openApiTools({
      document: DOCUMENT,
      baseUrl: fake.url,
      env: {},
      auth: { userToken: "${FILES_ACCESS_TOKEN}" },
      logger: log.logger,
    });
    const before = fake.requests.length;
    expect(await run(byName(api.tools(), "list_files"))).toMatch(
      /list_files needs FILES_ACCESS_TOKEN \(auth\.userToken of .*\), which is not set/,
    );
    expect(fake.requests.length).toBe(before);
    const refused = await openApiTools({
      document: DOCUMENT,
      baseUrl: fake.url,
      env: {},
      auth: { userToken: "xoxb-written-in-place" },
      logger: log.logger,
    }).catch((error: Error) => error);
    expect(String(refused)).toContain("auth.userToken must name the environment variable");
    expect(String(refused)).not.toContain("xoxb-written-in-place");
  });
});
