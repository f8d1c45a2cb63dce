// The attacker holds a token that should not pass: one that never expires, one issued long ago, one
// issued for another application or by another issuer, one that only looks like the supervisor's, one
// with no signature. Each is refused by a real agent process with a 401 that names the problem; an
// agent or supervisor configured so that such tokens could pass does not start.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { hopKeys } from "@switchboard-testing/test-idp";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const agentsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "agents");
const ISSUER = "https://idp.example.com";
const AUDIENCE = "urn:switchboard:api";
const MAX_AGE_SECONDS = 600;

describe("tokens are strict (AUTH_MODE=jwt)", () => {
  const dbName = uniqueDbName("adv-tokens");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let jwks: Server;
  let jwksUrl: string;
  let privateKey: CryptoKey;
  let agent: AgentProcess;
  const started: AgentProcess[] = [];

  const base = () => ({
    ...testMongoEnv(dbName),
    ...llm.env,
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: jwksUrl,
    ATLASSIAN_API_URL: jira.url,
    ATLASSIAN_EMAIL: jira.email,
    ATLASSIAN_TOKEN: jira.token,
  });
  const startJira = (env: Record<string, string>) => startAgentProcess(join(agentsDir, "jira"), { env });

  /** A token the identity provider's key signs, with the claims given (undefined leaves one out). */
  const token = (claims: JWTPayload & { exp?: number | undefined; iat?: number | undefined }) => {
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      sub: "mallory",
      iss: ISSUER,
      aud: AUDIENCE,
      iat: now,
      exp: now + 300,
      ...claims,
    };
    for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: "idp-key" }).sign(privateKey);
  };
  /** What the agent answers a guarded route for this bearer. */
  const call = async (bearer: string) => {
    const response = await fetch(`${agent.url}/conversations`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return { status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    const keys = await generateKeyPair("RS256");
    privateKey = keys.privateKey;
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: "idp-key", alg: "RS256", use: "sig" };
    jwks = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
    [llm, jira] = await Promise.all([
      startScriptedLlm({ script: rules([], say("Hello.")) }),
      startFakeJira(),
    ]);
    agent = await startJira({
      ...base(),
      AUTH_ISSUER: ISSUER,
      AUTH_AUDIENCE: AUDIENCE,
      AUTH_MAX_TOKEN_AGE_SECONDS: String(MAX_AGE_SECONDS),
    });
    started.push(agent);
  });
  afterAll(async () => {
    await Promise.all(started.map((process) => process.kill("SIGTERM")));
    await Promise.all([llm?.close(), jira?.close()]);
    jwks?.close();
  });

  it("accepts a proper token (so the refusals below are about what is wrong with each)", async () => {
    expect((await call(await token({}))).status).toBe(200);
  });

  it("refuses a token without exp: it would be accepted forever", async () => {
    const refused = await call(await token({ exp: undefined }));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("the token has no expiry (exp)");
  });

  it("refuses a token issued longer ago than AUTH_MAX_TOKEN_AGE_SECONDS, whatever its exp says", async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused = await call(await token({ iat: now - MAX_AGE_SECONDS - 60, exp: now + 86_400 * 365 }));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain(`AUTH_MAX_TOKEN_AGE_SECONDS (${MAX_AGE_SECONDS} s)`);
  });

  it("refuses a token without iat: its age cannot be checked", async () => {
    const refused = await call(await token({ iat: undefined }));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("no issue time (iat)");
  });

  it("refuses a token the same provider issued for another application (audience)", async () => {
    const refused = await call(await token({ aud: "urn:some-other-app" }));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("another audience (aud)");
  });

  it("refuses a token from another issuer, even signed with a key it trusts", async () => {
    const refused = await call(await token({ iss: "https://evil.example.com" }));
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("another issuer (iss)");
  });

  it("refuses an unsigned token (alg none)", async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${encode({ alg: "none" })}.${encode({ sub: "mallory", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 300 })}.`;
    expect((await call(unsigned)).status).toBe(401);
  });

  it("refuses a token dressed as the supervisor's when the agent was given no supervisor key", async () => {
    const { privateKey: attackerKey } = await generateKeyPair("EdDSA");
    const forged = await new SignJWT({ act: { sub: "supervisor" } })
      .setProtectedHeader({ alg: "EdDSA", typ: "switchboard-hop+jwt" })
      .setIssuer("urn:switchboard:supervisor")
      .setSubject("alice")
      .setAudience("jira")
      .setIssuedAt()
      .setExpirationTime("2m")
      .sign(attackerKey);
    const refused = await call(forged);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("AUTH_SUPERVISOR_PUBLIC_KEY");
  });

  it("does not start without AUTH_ISSUER and AUTH_AUDIENCE, naming them", async () => {
    await expect(startJira({ ...base(), AUTH_ISSUER: ISSUER })).rejects.toThrow(
      /AUTH_MODE=jwt needs AUTH_AUDIENCE/,
    );
    await expect(startJira({ ...base() })).rejects.toThrow(
      /AUTH_MODE=jwt needs AUTH_ISSUER and AUTH_AUDIENCE/,
    );
  });

  it("starts without them only when AUTH_ALLOW_ANY_AUDIENCE=true says so, and warns", async () => {
    const open = await startJira({ ...base(), AUTH_ALLOW_ANY_AUDIENCE: "true" });
    started.push(open);
    expect(open.logs()).toContain("AUTH_ALLOW_ANY_AUDIENCE=true and AUTH_ISSUER and AUTH_AUDIENCE unset");
    // Still no token without an expiry.
    const response = await fetch(`${open.url}/conversations`, {
      headers: { authorization: `Bearer ${await token({ exp: undefined })}` },
    });
    expect(response.status).toBe(401);
  });

  it("a supervisor in jwt mode does not start without a key to sign its hops with", async () => {
    const supervisor = startAgentProcess(join(agentsDir, "supervisor"), {
      env: {
        ...base(),
        AUTH_ISSUER: ISSUER,
        AUTH_AUDIENCE: AUDIENCE,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: agent.url,
        ENABLE_WEATHER: "false",
      },
    });
    await expect(supervisor).rejects.toThrow(/AUTH_MODE=jwt on the supervisor needs AUTH_HOP_SIGNING_KEY/);
  });

  it("a supervisor signing key that is not a signing key stops the start too", async () => {
    const { AUTH_SUPERVISOR_PUBLIC_KEY } = hopKeys();
    const supervisor = startAgentProcess(join(agentsDir, "supervisor"), {
      env: {
        ...base(),
        AUTH_ISSUER: ISSUER,
        AUTH_AUDIENCE: AUDIENCE,
        AUTH_HOP_SIGNING_KEY: AUTH_SUPERVISOR_PUBLIC_KEY,
        ENABLE_JIRA: "true",
        JIRA_AGENT_URL: agent.url,
        ENABLE_WEATHER: "false",
      },
    });
    await expect(supervisor).rejects.toThrow(/AUTH_HOP_SIGNING_KEY is not a PEM private key/);
  });
});
