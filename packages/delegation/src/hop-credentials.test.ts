import { generateKeyPairSync } from "node:crypto";
import { AuthenticatedCaller, HopTokenIssuer } from "@switchboard/agent-runtime";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { hopCredentials, readHopCredentials } from "./hop-credentials.js";
import type { SubagentConfig } from "./subagent-config.js";

const { privateKey } = generateKeyPairSync("ed25519");
const credentials = hopCredentials(
  HopTokenIssuer.fromPem(privateKey.export({ format: "pem", type: "pkcs8" }).toString(), "supervisor"),
);
const agent = (name: string, forwardUserToken = false): SubagentConfig => ({
  name,
  prefix: name.toUpperCase(),
  url: `http://${name}:8000`,
  vendor: name,
  forwardUserToken,
});
const alice = new AuthenticatedCaller("alice", "alices-idp-token", {
  sub: "alice",
  iss: "https://idp.example.com",
  aud: "switchboard",
  exp: 1,
  groups: ["ops"],
  email: "alice@example.com",
  email_verified: true,
});

describe("what a hop carries", () => {
  it("a token for that agent alone, with the caller's claims and not the user's token's own", async () => {
    const token = (await credentials.bearerFor(agent("jira"), alice)) as string;
    expect(token).not.toBe(alice.token);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "EdDSA", typ: "switchboard-hop+jwt" });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: "alice",
      aud: "jira",
      iss: "urn:switchboard:supervisor",
      act: { sub: "supervisor" },
      groups: ["ops"],
      email: "alice@example.com",
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(120);
  });

  it("a token for the agent by its own name, where the delegating agent calls it by another", async () => {
    const token = (await credentials.bearerFor(
      { ...agent("board"), cardName: "team-b-agent" },
      alice,
    )) as string;
    expect(decodeJwt(token).aud).toBe("team_b_agent");
  });

  it("the user's own token only for an agent configured to receive it", async () => {
    expect(await credentials.bearerFor(agent("aws", true), alice)).toBe(alice.token);
    const viaSupervisor = new AuthenticatedCaller(
      "alice",
      "a-hop-token",
      { sub: "alice" },
      undefined,
      "supervisor",
    );
    expect(await credentials.bearerFor(agent("aws", true), viaSupervisor)).not.toBe("a-hop-token");
  });

  it("nothing for an anonymous caller, and no token for the supervisor itself", async () => {
    expect(await credentials.bearerFor(agent("jira"), undefined)).toBeUndefined();
    await expect(credentials.bearerFor(agent("supervisor"), alice)).rejects.toThrow(/for itself/);
  });
});

describe("readHopCredentials", () => {
  it("stops an agent that delegates under AUTH_MODE=jwt without a key to sign with, naming the setting", () => {
    expect(() => readHopCredentials({ AUTH_MODE: "jwt" }, "supervisor")).toThrow(
      /AUTH_MODE=jwt on the supervisor needs AUTH_HOP_SIGNING_KEY/,
    );
    expect(() => readHopCredentials({ AUTH_MODE: "jwt" }, "release-notes")).toThrow(
      /AUTH_MODE=jwt on the release-notes agent, which delegates, needs AUTH_HOP_SIGNING_KEY/,
    );
  });
});
