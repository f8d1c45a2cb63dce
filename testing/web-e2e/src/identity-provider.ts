import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface IdentityProvider {
  /** The issuer, e.g. `http://127.0.0.1:41234`: OIDC_ISSUER for the page, AUTH_ISSUER for the agents. */
  issuer: string;
  /** Where the agents read the signing keys: AUTH_JWKS_URL. */
  jwksUrl: string;
  clientId: string;
  /** The `aud` of its access tokens: AUTH_AUDIENCE. */
  audience: string;
  /** The scope the page asks for: OIDC_SCOPE. */
  scope: string;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (node-oidc-provider) on loopback, with its development login and
 * consent pages (any login, any password). The web chat is a public client that must use PKCE; its
 * access tokens are RS256 JWTs for the Switchboard audience, which the agents verify by JWKS.
 */
export async function startIdentityProvider(webOrigin: string): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "switchboard-web";
  // RFC 8707: a resource indicator is an absolute URI.
  const audience = "urn:switchboard:api";
  const resourceScope = "switchboard";
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [`${webOrigin}/auth/callback`],
        post_logout_redirect_uris: [`${webOrigin}/`],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], profile: ["name"] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, name: sub }) }),
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({
          scope: resourceScope,
          audience,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    clientBasedCORS: (_ctx, origin) => origin === webOrigin,
  });
  server.on("request", provider.callback());
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    clientId,
    audience,
    scope: `openid profile ${resourceScope}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
