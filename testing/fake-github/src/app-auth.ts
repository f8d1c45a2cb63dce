// GitHub App authentication as GitHub does it: the app signs a short JWT (RS256, `iss` = app id) with
// its private key and trades it at POST /app/installations/:id/access_tokens for an installation
// token (`ghs_…`, an hour), which then authenticates API calls like any token.
import { randomBytes } from "node:crypto";
import { importSPKI, jwtVerify } from "jose";
import { GithubHttpError } from "./http.js";

export interface FakeGithubApp {
  /** The app's id: the JWT's `iss`. */
  id: number;
  /** The app's public key (PEM, SPKI): the private key's other half, which GitHub keeps. */
  publicKey: string;
  /** The one installation it answers for. */
  installationId: number;
}

/** The installation tokens issued so far (each one also joins the tokens the server accepts). */
export type IssuedTokens = string[];

const ACCESS_TOKENS = /^\/app\/installations\/(\d+)\/access_tokens$/;

/** Whether this request is the token exchange (answered before the usual token check). */
export function isTokenExchange(method: string, path: string): boolean {
  return method === "POST" && ACCESS_TOKENS.test(path);
}

/** Checks the app's JWT and issues an installation token, as GitHub answers (201). */
export async function exchangeForInstallationToken(
  app: FakeGithubApp | undefined,
  path: string,
  bearer: string | undefined,
  issued: IssuedTokens,
): Promise<{ status: number; body: unknown }> {
  if (!app) throw GithubHttpError.notFound();
  if (!bearer) throw new GithubHttpError(401, "A JSON web token could not be decoded");
  try {
    const key = await importSPKI(app.publicKey, "RS256");
    const { payload } = await jwtVerify(bearer, key, { algorithms: ["RS256"] });
    if (String(payload.iss) !== String(app.id)) throw new Error("wrong issuer");
  } catch {
    throw new GithubHttpError(
      401,
      "'Expiration time' claim ('exp') is too far in the future or the JWT is invalid",
    );
  }
  if (Number(ACCESS_TOKENS.exec(path)?.[1]) !== app.installationId) throw GithubHttpError.notFound();
  const token = `ghs_${randomBytes(18).toString("base64url")}`;
  issued.push(token);
  return {
    status: 201,
    body: {
      token,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      permissions: { contents: "read", issues: "write", pull_requests: "write", actions: "read" },
      repository_selection: "all",
    },
  };
}
