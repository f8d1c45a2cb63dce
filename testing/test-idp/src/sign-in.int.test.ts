import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, signIn, startIdentityProvider } from "./index.js";

describe("the test identity provider", () => {
  let idp: IdentityProvider;
  beforeAll(async () => {
    idp = await startIdentityProvider({
      users: { alice: { groups: ["plat", "sre"], email: "alice@example.com", name: "Alice" } },
    });
  });
  afterAll(() => idp.close());

  it("signs a user in through the code flow and issues a verifiable token with their groups", async () => {
    const token = await signIn(idp, "alice");
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(idp.jwksUrl)), {
      issuer: idp.issuer,
      audience: idp.audience,
    });
    expect(payload).toMatchObject({ sub: "alice", groups: ["plat", "sre"], email: "alice@example.com" });
  });

  it("signs in a user it does not list, with no groups", async () => {
    const token = await signIn(idp, "bob");
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(idp.jwksUrl)));
    expect(payload.sub).toBe("bob");
    expect(payload.groups).toBeUndefined();
  });
});
