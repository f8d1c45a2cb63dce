import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A test user: the groups its access tokens carry, and its display claims. */
export interface TestUser {
  groups?: string[];
  name?: string;
  email?: string;
  /** Whether the provider vouches for the email (`email_verified`); default true. */
  emailVerified?: boolean;
}

export interface IdentityProviderOptions {
  /** The web chat's origin, for its redirect URIs and CORS; default a loopback placeholder. */
  webOrigin?: string;
  /** Users by subject; anyone else can still sign in, with no groups. */
  users?: Record<string, TestUser>;
  /** The claim access tokens carry groups in (default `groups`). */
  groupClaim?: string;
  /**
   * Confidential clients that get tokens for themselves (the client-credentials grant, authenticated
   * with client_secret_basic): a service's own principal, its `sub` the client id.
   */
  serviceClients?: { clientId: string; clientSecret: string }[];
  /**
   * Further resources (RFC 8707 resource indicators) it issues access tokens for: an MCP server's URL
   * whose tokens name the agents' audience too (`"and-agents"`), or only the resource (`"alone"`).
   */
  resources?: Record<string, "and-agents" | "alone">;
}

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
  /** The redirect URI programmatic sign-ins use. */
  redirectUri: string;
  /** Where a service client asks for its token. */
  tokenUrl: string;
  /** How many tokens the token endpoint has issued to `clientId` so far (a cache's test). */
  tokensIssuedTo(clientId: string): number;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (node-oidc-provider) on loopback, with its development login and
 * consent pages (any login, any password). Clients are public and must use PKCE; access tokens are
 * RS256 JWTs for the Switchboard audience, carrying the user's groups, which agents verify by JWKS.
 */
export async function startIdentityProvider(
  options: IdentityProviderOptions = {},
): Promise<IdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const webOrigin = options.webOrigin ?? "http://127.0.0.1:1";
  const users = options.users ?? {};
  const resources = options.resources ?? {};
  const groupClaim = options.groupClaim ?? "groups";
  const clientId = "switchboard-web";
  const redirectUri = `${webOrigin}/auth/callback`;
  // RFC 8707: a resource indicator is an absolute URI.
  const audience = "urn:switchboard:api";
  const resourceScope = "switchboard";
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: "none",
        // refresh_token: the Slack relay keeps a linked user signed in (offline_access).
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: [redirectUri, `${webOrigin}/slack/link/callback`, `${webOrigin}/webex/link/callback`],
        post_logout_redirect_uris: [`${webOrigin}/`],
      },
      ...(options.serviceClients ?? []).map(({ clientId: id, clientSecret }) => ({
        client_id: id,
        client_secret: clientSecret,
        token_endpoint_auth_method: "client_secret_basic" as const,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
      })),
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], profile: ["name"], email: ["email", "email_verified"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        name: users[sub]?.name ?? sub,
        ...(users[sub]?.email
          ? { email: users[sub]?.email, email_verified: users[sub]?.emailVerified ?? true }
          : {}),
      }),
    }),
    // The access token carries what the agents decide on: groups, and the display claims for audit.
    extraTokenClaims: async (_ctx, token) => {
      const sub = (token as { accountId?: string }).accountId;
      const user = sub ? users[sub] : undefined;
      if (!sub || !user) return undefined;
      return {
        [groupClaim]: user.groups ?? [],
        ...(user.name ? { name: user.name } : {}),
        ...(user.email ? { email: user.email, email_verified: user.emailVerified ?? true } : {}),
      };
    },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => ({
          scope: resourceScope,
          audience: resource in resources ? resource : audience,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    clientBasedCORS: (_ctx, origin) => origin === webOrigin,
    // A further resource's token names its other audiences too (aud as an array, RFC 7519 §4.1.3).
    formats: {
      customizers: {
        jwt: async (_ctx, _token, jwt) => {
          const resource = String(jwt.payload.aud);
          if (resources[resource] === "and-agents") jwt.payload.aud = [resource, audience];
        },
      },
    },
  });
  const issued = new Map<string, number>();
  provider.on("grant.success", (ctx) => {
    const id = ctx.oidc.client?.clientId;
    if (id) issued.set(id, (issued.get(id) ?? 0) + 1);
  });
  server.on("request", provider.callback());
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    clientId,
    audience,
    scope: `openid profile ${resourceScope}`,
    redirectUri,
    tokenUrl: `${issuer}/token`,
    tokensIssuedTo: (id) => issued.get(id) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
