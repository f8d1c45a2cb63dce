import type { User } from "@a2a-js/sdk/server";
import { UnauthenticatedUser } from "@a2a-js/sdk/server";
import { APPROVER_HEADER } from "@switchboard/a2a-client";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { AuthenticatedCaller } from "./caller.js";
import {
  DIRECTORY_TYPE,
  directoryTokenRefusal,
  HOP_ISSUER,
  HOP_LIFETIME_SECONDS,
  HOP_TYPE,
  type HopTokenCheck,
  hopAudience,
  hopTokenCheck,
} from "./hop-token.js";

const AuthEnv = z.object({
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  AUTH_JWKS_URL: z.url().optional(),
  AUTH_JWT_SECRET: z.string().min(32, "use at least 32 characters for an HS256 secret").optional(),
  AUTH_ISSUER: z.string().optional(),
  AUTH_AUDIENCE: z.string().optional(),
  /** Tokens issued (iat) longer ago than this are refused, whatever their exp says. */
  AUTH_MAX_TOKEN_AGE_SECONDS: z.coerce
    .number()
    .int()
    .positive("use a number of seconds, e.g. 43200 (12 hours)")
    .default(43_200),
  /** Accept tokens whatever their audience or issuer (only the signature is checked): a start-up warning. */
  AUTH_ALLOW_ANY_AUDIENCE: z.stringbool().default(false),
  /** The supervisor's public key: the hop tokens it signs for this agent are accepted. */
  AUTH_SUPERVISOR_PUBLIC_KEY: z.string().optional(),
});

export type AuthSettings =
  | { mode: "none" }
  | {
      mode: "jwt";
      key: Uint8Array | JWTVerifyGetKey;
      issuer?: string;
      audience?: string;
      maxTokenAgeSeconds: number;
      /** Set with AUTH_SUPERVISOR_PUBLIC_KEY: the supervisor's hop tokens for this agent pass too. */
      hop?: HopTokenCheck;
      /** What an operator should read at start-up (an explicit AUTH_ALLOW_ANY_AUDIENCE). */
      warnings: string[];
    };

/**
 * AUTH_MODE and its keys. In jwt mode a key to verify with is required, and so are the issuer and
 * audience (else a token the same provider issued for any other application would pass) unless
 * AUTH_ALLOW_ANY_AUDIENCE=true says otherwise, which is warned about. `agent` is this agent's name:
 * the audience of the supervisor's hop tokens meant for it.
 */
export function readAuthSettings(env: NodeJS.ProcessEnv, agent: string): AuthSettings {
  const e = parseEnv(AuthEnv, env, { code: "auth.config", what: "authentication settings" });
  if (e.AUTH_MODE === "none") return { mode: "none" };
  const key = e.AUTH_JWKS_URL
    ? remoteKeys(new URL(e.AUTH_JWKS_URL))
    : e.AUTH_JWT_SECRET
      ? new TextEncoder().encode(e.AUTH_JWT_SECRET)
      : undefined;
  if (!key) {
    throw new SwitchboardError(
      "auth.config",
      "user",
      "AUTH_MODE=jwt needs a key to verify tokens: set AUTH_JWKS_URL (your identity provider's JWKS) or AUTH_JWT_SECRET (HS256).",
    );
  }
  const unset = [e.AUTH_ISSUER ? "" : "AUTH_ISSUER", e.AUTH_AUDIENCE ? "" : "AUTH_AUDIENCE"].filter(Boolean);
  const warnings: string[] = [];
  if (unset.length > 0 && !e.AUTH_ALLOW_ANY_AUDIENCE) {
    throw new SwitchboardError(
      "auth.config",
      "user",
      `AUTH_MODE=jwt needs ${unset.join(" and ")}: set your identity provider's issuer (AUTH_ISSUER) and the audience its tokens name for Switchboard (AUTH_AUDIENCE), else a token it issued for any other application passes. AUTH_ALLOW_ANY_AUDIENCE=true accepts any (not recommended).`,
    );
  }
  if (unset.length > 0) {
    warnings.push(
      `AUTH_ALLOW_ANY_AUDIENCE=true and ${unset.join(" and ")} unset: any token the key verifies is accepted, whatever application it was issued for. Set ${unset.join(" and ")} to check.`,
    );
  }
  return {
    mode: "jwt",
    key,
    issuer: e.AUTH_ISSUER,
    audience: e.AUTH_AUDIENCE,
    maxTokenAgeSeconds: e.AUTH_MAX_TOKEN_AGE_SECONDS,
    ...(e.AUTH_SUPERVISOR_PUBLIC_KEY ? { hop: hopTokenCheck(e.AUTH_SUPERVISOR_PUBLIC_KEY, agent) } : {}),
    warnings,
  };
}

/**
 * `settings` as agent `agent` of the same process checks tokens: the same keys (so one JWKS cache for
 * a host's agents, and no agent's first call slower than another's), a supervisor's hop token
 * accepted only when it is meant for that agent.
 */
export function authForAgent(settings: AuthSettings, agent: string): AuthSettings {
  if (settings.mode === "none" || !settings.hop) return settings;
  return { ...settings, hop: { ...settings.hop, audience: hopAudience(agent) } };
}

/**
 * The identity provider's keys (its JWKS), fetched and cached by jose from the first token on. jose
 * itself loads with the first token too: an agent with AUTH_MODE=none never loads it.
 */
function remoteKeys(url: URL): JWTVerifyGetKey {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    keys ??= import("jose").then(({ createRemoteJWKSet }) =>
      createRemoteJWKSet(url, { timeoutDuration: 5_000 }),
    );
    return (await keys)(header, token);
  };
}

const CALLER = Symbol("switchboard.caller");
type WithCaller = Request & { [CALLER]?: AuthenticatedCaller };

/**
 * Verifies the bearer token of every A2A request before anything runs, and an approver's token when
 * the request names one (APPROVER_HEADER: the request still runs as its caller, on the caller's
 * task; the approver only counts where a change waits for a decision, see turn/approval.ts); a missing or bad token is answered 401 (in the JSON-RPC error shape on the
 * JSON-RPC binding). The tokens are kept in memory for this request only, to forward to subagents.
 */
export function bearerGuard(settings: AuthSettings, binding: "jsonrpc" | "rest"): RequestHandler {
  if (settings.mode === "none") return (_req, _res, next) => next();
  return async (req: Request, res: Response, next: NextFunction) => {
    const caller = await callerFromHeaders(
      settings,
      req.header("authorization"),
      req.header(APPROVER_HEADER),
    );
    if (typeof caller === "string") return refuse(res, binding, caller);
    (req as WithCaller)[CALLER] = caller;
    next();
  };
}

/**
 * The caller a request's `authorization` and APPROVER_HEADER values name (HTTP headers, gRPC
 * metadata), both verified, or why the request is refused (words for the refusal, never a token).
 * The one bearer check every binding makes.
 */
export async function callerFromHeaders(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  authorization: string | undefined,
  approverHeader: string | undefined,
): Promise<AuthenticatedCaller | string> {
  const token = bearerIn(authorization);
  if (!token) return "a bearer token is required (Authorization: Bearer <JWT>)";
  const caller = await verified(settings, token);
  if (typeof caller === "string") return caller;
  if (approverHeader === undefined) return caller;
  const approverToken = bearerIn(approverHeader);
  if (!approverToken) return `${APPROVER_HEADER} must be "Bearer <the approver's JWT>"`;
  const approver = await verified(settings, approverToken);
  if (typeof approver === "string") return `the approver's ${APPROVER_HEADER} token: ${approver}`;
  return new AuthenticatedCaller(caller.subject, caller.token, caller.claims, approver, caller.via);
}

/** {@link callerFromHeaders} on headers read by lower-case name (gRPC metadata). */
export function callerFromHeaderReader(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  header: (name: string) => string | undefined,
): Promise<AuthenticatedCaller | string> {
  return callerFromHeaders(settings, header("authorization"), header(APPROVER_HEADER.toLowerCase()));
}

/**
 * Whether a request is the supervisor reading this host's whole directory of agents: `false` when it
 * carries no directory token (it is decided as any caller's), `true` with a valid one, else why the
 * token is refused (words for the 401).
 */
export async function directoryReader(settings: AuthSettings, req: Request): Promise<boolean | string> {
  const token = bearerIn(req.header("authorization"));
  if (!token || settings.mode !== "jwt") return false;
  const { decodeProtectedHeader } = await import("jose");
  let typ: string | undefined;
  try {
    typ = decodeProtectedHeader(token).typ;
  } catch {
    return false;
  }
  if (typ !== DIRECTORY_TYPE) return false;
  if (!settings.hop)
    return "the token is a supervisor's directory token, and this host has no AUTH_SUPERVISOR_PUBLIC_KEY to check it with";
  return (await directoryTokenRefusal(settings.hop, token)) ?? true;
}

function bearerIn(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() || undefined;
}

/**
 * The user a bearer token names, verified exactly as every agent verifies it (issuer, audience,
 * expiry, age, signature), or why it is refused (words for a 401): for a service that takes users'
 * tokens on another protocol (the MCP server). A supervisor's hop or directory token names no user
 * there and is refused.
 */
export async function verifyUserToken(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  token: string,
): Promise<AuthenticatedCaller | string> {
  const { decodeProtectedHeader } = await import("jose");
  try {
    if (decodeProtectedHeader(token).typ === HOP_TYPE)
      return "the token is a supervisor's hop token, made for one agent: sign in with your own";
  } catch {
    // Not a JWT at all: verified() says so.
  }
  return verified({ ...settings, hop: undefined }, token);
}

/** The caller a token names, or why it was refused (words for the 401). */
async function verified(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  token: string,
): Promise<AuthenticatedCaller | string> {
  const { decodeProtectedHeader, jwtVerify } = await import("jose");
  try {
    // The header only picks which check applies; each is a full signature check of its own.
    const { typ } = decodeProtectedHeader(token);
    if (typ === HOP_TYPE) return await hopCaller(settings, token);
    if (typ === DIRECTORY_TYPE)
      return "the token is a supervisor's directory token: it reads a host's list of agents and names no caller";
    const options = {
      algorithms: settings.key instanceof Uint8Array ? ["HS256"] : undefined,
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
      requiredClaims: ["exp", "iat"],
      maxTokenAge: settings.maxTokenAgeSeconds,
    };
    const { payload } =
      settings.key instanceof Uint8Array
        ? await jwtVerify(token, settings.key, options)
        : await jwtVerify(token, settings.key, options);
    if (!payload.sub) return "the token has no subject (sub) claim";
    return new AuthenticatedCaller(payload.sub, token, withVerifiedEmail(payload));
  } catch (error) {
    return refusal(error, settings);
  }
}

/** A hop token the supervisor signed for this agent: refused unless this agent was configured to check them. */
async function hopCaller(
  settings: Extract<AuthSettings, { mode: "jwt" }>,
  token: string,
): Promise<AuthenticatedCaller | string> {
  const hop = settings.hop;
  if (!hop) {
    return "the token is a supervisor's hop token, and this agent has no AUTH_SUPERVISOR_PUBLIC_KEY to check it with";
  }
  const { jwtVerify } = await import("jose");
  const { payload } = await jwtVerify(token, hop.key, {
    algorithms: [hop.algorithm],
    issuer: HOP_ISSUER,
    audience: hop.audience,
    typ: HOP_TYPE,
    requiredClaims: ["exp", "iat", "sub", "act"],
    // A hop token lives HOP_LIFETIME_SECONDS; the rest is room for clocks apart.
    maxTokenAge: HOP_LIFETIME_SECONDS + 30,
  });
  return new AuthenticatedCaller(
    payload.sub as string,
    token,
    withVerifiedEmail(payload),
    undefined,
    "supervisor",
  );
}

/**
 * The claims without an email the provider does not vouch for (`email_verified` not true): anyone
 * may type any address into an account at many providers, so policies and audits see none.
 */
function withVerifiedEmail(claims: Record<string, unknown>): Record<string, unknown> {
  if (claims.email === undefined || claims.email_verified === true || claims.email_verified === "true") {
    return claims;
  }
  const { email: _unverified, ...rest } = claims;
  return rest;
}

/** Why jose refused a token, in words that name the problem (never the token). */
function refusal(error: unknown, settings: Extract<AuthSettings, { mode: "jwt" }>): string {
  const { code, claim, reason } = error as { code?: string; claim?: string; reason?: string };
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && reason === "missing") {
    if (claim === "exp") return "the token has no expiry (exp): tokens that never expire are not accepted";
    if (claim === "iat") return "the token has no issue time (iat), so its age cannot be checked";
    return `the token has no "${claim}" claim`;
  }
  if (code === "ERR_JWT_EXPIRED" && claim === "iat") {
    return `the token was issued more than AUTH_MAX_TOKEN_AGE_SECONDS (${settings.maxTokenAgeSeconds} s) ago: sign in again`;
  }
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim === "iat") {
    return "the token's issue time (iat) is in the future";
  }
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim === "aud") {
    return "the token was issued for another audience (aud): it is not meant for this agent";
  }
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim === "iss") {
    return "the token was issued by another issuer (iss) than this agent trusts";
  }
  if (code === "ERR_JWT_EXPIRED") return "the token has expired: sign in again";
  return `the token was refused (${code ?? "ERR_JWT_INVALID"})`;
}

/** The A2A SDK's view of who is calling: the verified caller, or anonymous. */
export async function callerOf(req: Request): Promise<User> {
  return (req as WithCaller)[CALLER] ?? new UnauthenticatedUser();
}

function refuse(res: Response, binding: "jsonrpc" | "rest", reason: string): void {
  const message = `Unauthorized: ${reason}.`;
  res.status(401).setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
  if (binding === "jsonrpc") res.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message } });
  else res.json({ error: { code: 401, status: "UNAUTHENTICATED", message } });
}
