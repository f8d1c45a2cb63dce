import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SwitchboardError } from "@switchboard/common";
import { freePort } from "@switchboard/vitest-config/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStatusError, requestJson } from "../src/vendor-client/http-json.js";
import { VendorClient, type VendorSpec } from "../src/vendor-client/vendor-client.js";

const TOKEN = "tok-3f9a1c77e0secret";

/** A vendor API that answers each path the way real APIs refuse. */
function startVendor(): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { message: "Bad credentials" });
    if (req.url === "/items") return reply(200, [{ id: "1" }]);
    if (req.url === "/forbidden") return reply(403, { message: "Resource not accessible by token" });
    if (req.url === "/busy") return reply(429, { message: "slow down" }, { "retry-after": "17" });
    if (req.url === "/echo") return reply(400, { message: `token ${TOKEN} is not valid here` });
    if (req.url === "/slow") return; // never answers
    reply(404, { errorMessages: ["No such item"] });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

interface Settings {
  url: string;
  token: string;
}

function vendorSpec(): VendorSpec<{ get: (path: string) => Promise<unknown> }, Settings> {
  return {
    vendor: "Acme",
    code: "acme",
    settings: (env) => {
      if (!env.ACME_URL || !env.ACME_TOKEN) {
        throw new SwitchboardError("acme.credentials", "user", "Set ACME_URL and ACME_TOKEN.");
      }
      return { url: env.ACME_URL, token: env.ACME_TOKEN };
    },
    connect: ({ url, token }) => ({
      get: (path) =>
        requestJson({ url: `${url}${path}`, headers: { authorization: `Bearer ${token}` }, timeoutMs: 500 }),
    }),
    names: ({ url }) => ({ url, credentials: "ACME_TOKEN", address: "ACME_URL" }),
    secrets: ({ token }) => [token],
  };
}

async function failureOf(promise: Promise<unknown>): Promise<SwitchboardError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SwitchboardError);
  return error as SwitchboardError;
}

describe("a vendor client against a real HTTP API", () => {
  let server: Server;
  let url: string;
  let client: VendorClient<{ get: (path: string) => Promise<unknown> }, Settings>;

  beforeAll(async () => {
    server = await startVendor();
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new VendorClient(vendorSpec(), { ACME_URL: url, ACME_TOKEN: TOKEN });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("answers a call", async () => {
    expect(await client.call({}, (acme) => acme.get("/items"))).toEqual([{ id: "1" }]);
  });

  it("says which setting is missing, and connects once it is set", async () => {
    const env: NodeJS.ProcessEnv = { ACME_URL: url };
    const late = new VendorClient(vendorSpec(), env);
    expect((await failureOf(late.call({}, (acme) => acme.get("/items")))).message).toBe(
      "Set ACME_URL and ACME_TOKEN.",
    );
    env.ACME_TOKEN = TOKEN;
    expect(await late.call({}, (acme) => acme.get("/items"))).toEqual([{ id: "1" }]);
  });

  it("sends refused credentials to the user, naming the setting", async () => {
    const wrong = new VendorClient(vendorSpec(), { ACME_URL: url, ACME_TOKEN: "nope" });
    const error = await failureOf(wrong.call({}, (acme) => acme.get("/items")));
    expect(error).toMatchObject({ code: "acme.credentials", category: "user" });
    expect(error.message).toContain(
      "Acme refused the credentials (HTTP 401: Bad credentials): check ACME_TOKEN",
    );
  });

  it("tells a missing permission, a missing thing and a rate limit apart", async () => {
    const forbidden = await failureOf(client.call({}, (acme) => acme.get("/forbidden")));
    expect(forbidden).toMatchObject({ code: "acme.forbidden", category: "third-party" });
    expect(forbidden.message).toContain("lack the permission");
    const missing = await failureOf(client.call({}, (acme) => acme.get("/nothing")));
    expect(missing).toMatchObject({ code: "acme.not-found", category: "third-party" });
    expect(missing.message).toContain("404 Not Found for GET /nothing: No such item");
    const busy = await failureOf(client.call({}, (acme) => acme.get("/busy")));
    expect(busy).toMatchObject({ code: "acme.rate-limited" });
    expect(busy.message).toContain("try again in 17 s");
  });

  it("names the URL it cannot reach, and a timeout", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const unreachable = new VendorClient(vendorSpec(), { ACME_URL: down, ACME_TOKEN: TOKEN });
    const error = await failureOf(unreachable.call({}, (acme) => acme.get("/items")));
    expect(error).toMatchObject({ code: "acme.unreachable" });
    expect(error.message).toContain(`Cannot reach Acme at ${down} (ECONNREFUSED): check ACME_URL`);
    const slow = await failureOf(client.call({}, (acme) => acme.get("/slow")));
    expect(slow).toMatchObject({ code: "acme.timeout" });
  });

  it("never repeats the token, even when the vendor echoes it", async () => {
    const error = await failureOf(client.call({}, (acme) => acme.get("/echo")));
    expect(error.message).toContain("Acme answered HTTP 400");
    expect(error.message).not.toContain(TOKEN);
  });

  it("throws HttpStatusError from requestJson, with the call and the vendor's words", async () => {
    const thrown = await requestJson({
      url: `${url}/nothing`,
      headers: { authorization: `Bearer ${TOKEN}` },
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(HttpStatusError);
    expect(thrown).toMatchObject({ status: 404, operation: "GET /nothing", detail: "No such item" });
  });
});
