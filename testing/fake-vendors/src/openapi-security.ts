import { randomBytes } from "node:crypto";
import type { Document } from "openapi-backend";
import { type RouteContext, type RouteResult, VendorHttpError } from "./vendor-server.js";

type Scheme = Record<string, unknown>;
type Requirement = Record<string, unknown>;

/** One credential a request carried: the scheme it answers to, and how it came. */
export interface ReceivedCredential {
  scheme: string;
  /** `header X-API-Key`, `query api_key`, `cookie session`, `bearer`, `basic`, `oauth2 bearer`. */
  how: string;
  /** It was the credential the fake was given for that scheme (or a token it issued). */
  valid: boolean;
}

/** One request as the security check saw it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** The operation it matched; the token endpoint is `oauth2 token (<scheme>)`. */
  operationId: string | undefined;
  credentials: ReceivedCredential[];
}

export interface OpenApiSecurity {
  /** The token endpoint of each client-credentials scheme on the fake's own origin. */
  answer(ctx: RouteContext): RouteResult | undefined;
  /** Throws 401 (no accepted credential, with why) or 400 (a credential sent where none is declared). */
  check(ctx: RouteContext): void;
  readonly received: ReceivedRequest[];
  /** Tokens issued so far. */
  readonly issued: string[];
  /** Makes every issued token invalid, as an authorization server revoking them. */
  revokeTokens(): void;
}

interface Route {
  method: string;
  pattern: RegExp;
  operationId: string | undefined;
  security: Requirement[];
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function routesOf(document: Document, apiRoot: string): Route[] {
  const root = apiRoot.replace(/\/+$/, "");
  const global = (document as { security?: Requirement[] }).security ?? [];
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(
    (document.paths ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    const pattern = new RegExp(
      `^${root}${path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
        .join("[^/]+")}/?$`,
    );
    for (const method of METHODS) {
      const operation = item[method] as { operationId?: string; security?: Requirement[] } | undefined;
      if (!operation) continue;
      routes.push({
        method: method.toUpperCase(),
        pattern,
        operationId: operation.operationId,
        security: operation.security ?? global,
      });
    }
  }
  return routes;
}

function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return cookies;
}

function basicOf(header: string): { id: string; secret: string } | undefined {
  const text = Buffer.from(header.slice("basic ".length), "base64").toString("utf8");
  const at = text.indexOf(":");
  if (at < 0) return undefined;
  // RFC 6749 2.3.1: a client's id and secret are form-encoded before going into basic.
  const decode = (part: string) => new URLSearchParams(`v=${part}`).get("v") ?? part;
  return { id: decode(text.slice(0, at)), secret: decode(text.slice(at + 1)) };
}

/**
 * The security a description declares, enforced as its API would: every request must carry a
 * credential one of its operation's requirements accepts (all schemes of one requirement, each
 * sent as its scheme says, with the value the fake was given), else 401 naming what was wanted and
 * what came; an operation that declares none (`security: []`) must receive none, else 400. An
 * OAuth2 client-credentials `tokenUrl` on the fake's own origin is served: the client's
 * `id:secret` in HTTP basic (or the form) buys a token that the scheme then accepts as bearer. An
 * OAuth2 scheme with no client-credentials flow takes its credential (an access token obtained
 * elsewhere) as a bearer token.
 */
export function openApiSecurity(
  document: Document,
  credentials: Record<string, string>,
  options: { apiRoot?: string; tokenLifetimeSeconds?: number } = {},
): OpenApiSecurity {
  const schemes = ((document.components as { securitySchemes?: Record<string, Scheme> } | undefined)
    ?.securitySchemes ?? {}) as Record<string, Scheme>;
  for (const scheme of Object.keys(credentials))
    if (!schemes[scheme])
      throw new Error(`openApiSecurity: the description has no security scheme ${scheme}`);
  const routes = routesOf(document, options.apiRoot ?? "/");
  const received: ReceivedRequest[] = [];
  const tokens = new Map<string, string>(); // token → scheme
  const issued: string[] = [];

  // Relative token URLs are served at their path; an absolute one only if it names no other host.
  const tokenPaths = new Map<string, string>();
  for (const [name, scheme] of Object.entries(schemes)) {
    const flow = clientCredentialsOf(scheme);
    if (typeof flow?.tokenUrl !== "string") continue;
    const url = new URL(flow.tokenUrl, "http://fake.invalid");
    if (url.host === "fake.invalid" || /^(127\.0\.0\.1|localhost)(:|$)/.test(url.host))
      tokenPaths.set(url.pathname, name);
  }

  /** What of each scheme a request carries. */
  const carried = (ctx: RouteContext): ReceivedCredential[] => {
    const found: ReceivedCredential[] = [];
    const authorization = String(ctx.headers.authorization ?? "");
    const cookies = cookiesOf(ctx.headers.cookie);
    for (const [name, scheme] of Object.entries(schemes)) {
      const expected = credentials[name];
      if (scheme.type === "apiKey" && typeof scheme.name === "string") {
        const key = scheme.name;
        const value =
          scheme.in === "header"
            ? ctx.headers[key.toLowerCase()]
            : scheme.in === "query"
              ? (ctx.query.get(key) ?? undefined)
              : scheme.in === "cookie"
                ? cookies.get(key)
                : undefined;
        if (value !== undefined)
          found.push({ scheme: name, how: `${String(scheme.in)} ${key}`, valid: value === expected });
      }
      const http = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
      if (scheme.type === "http" && http === "basic" && /^basic /i.test(authorization)) {
        const client = basicOf(authorization);
        found.push({
          scheme: name,
          how: "basic",
          valid: client !== undefined && `${client.id}:${client.secret}` === expected,
        });
      }
      const bearer = /^bearer /i.test(authorization) ? authorization.slice(7) : undefined;
      if (bearer !== undefined && scheme.type === "http" && http === "bearer")
        found.push({ scheme: name, how: "bearer", valid: bearer === expected });
      // A client-credentials flow's token is one the fake issued; any other flow's (authorization
      // code, implicit, password) is an access token obtained elsewhere: the value it was given.
      if (bearer !== undefined && scheme.type === "oauth2")
        found.push({
          scheme: name,
          how: "oauth2 bearer",
          valid: clientCredentialsOf(scheme) ? tokens.get(bearer) === name : bearer === expected,
        });
    }
    // One Authorization header answers to several bearer schemes: the one whose value it is came.
    const bearers = found.filter(({ how }) => how.endsWith("bearer"));
    if (bearers.some(({ valid }) => valid))
      return found.filter((one) => !one.how.endsWith("bearer") || one.valid);
    return found;
  };

  const answer = (ctx: RouteContext): RouteResult | undefined => {
    const scheme = tokenPaths.get(ctx.path);
    if (!scheme || ctx.method !== "POST") return undefined;
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const authorization = String(ctx.headers.authorization ?? "");
    const client = /^basic /i.test(authorization)
      ? basicOf(authorization)
      : typeof body.client_id === "string"
        ? { id: body.client_id, secret: String(body.client_secret ?? "") }
        : undefined;
    const valid = client !== undefined && `${client.id}:${client.secret}` === credentials[scheme];
    received.push({
      method: ctx.method,
      path: ctx.path,
      operationId: `oauth2 token (${scheme})`,
      credentials: client
        ? [{ scheme, how: /^basic /i.test(authorization) ? "client basic" : "client form", valid }]
        : [],
    });
    if (!String(ctx.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      return {
        status: 400,
        body: { error: "invalid_request", error_description: "the token request is a form" },
      };
    if (body.grant_type !== "client_credentials")
      return { status: 400, body: { error: "unsupported_grant_type" } };
    if (!valid) return { status: 401, body: { error: "invalid_client" } };
    const token = `tok-${scheme}-${randomBytes(12).toString("hex")}`;
    tokens.set(token, scheme);
    issued.push(token);
    return {
      status: 200,
      headers: { "cache-control": "no-store" },
      body: { access_token: token, token_type: "Bearer", expires_in: options.tokenLifetimeSeconds ?? 3600 },
    };
  };

  const check = (ctx: RouteContext): void => {
    const route = routes.find((one) => one.method === ctx.method && one.pattern.test(ctx.path));
    const came = carried(ctx);
    received.push({ method: ctx.method, path: ctx.path, operationId: route?.operationId, credentials: came });
    if (!route) return;
    const named = route.security.filter((requirement) => Object.keys(requirement).length > 0);
    if (named.length === 0) {
      if (came.length > 0)
        throw new VendorHttpError(
          400,
          `credential sent to an operation that declares none: ${route.operationId ?? ctx.path} declares security: [] and received ${came.map(({ scheme, how }) => `${scheme} (${how})`).join(", ")}`,
        );
      return;
    }
    if (named.length < route.security.length) return; // `{}`: the API also takes calls without
    const accepted = named.some((requirement) =>
      Object.keys(requirement).every((scheme) => came.some((one) => one.scheme === scheme && one.valid)),
    );
    if (accepted) return;
    const wanted = named
      .map((requirement) =>
        Object.keys(requirement)
          .map((scheme) => `${scheme} (${describe(schemes[scheme])})`)
          .join(" and "),
      )
      .join(", or ");
    const got =
      came.length === 0
        ? "no credential"
        : came
            .map(({ scheme, how, valid }) => `${scheme} (${how}${valid ? "" : ", not the right value"})`)
            .join(", ");
    throw new VendorHttpError(401, `${route.operationId ?? ctx.path} needs ${wanted}; it received ${got}`);
  };

  return {
    answer,
    check,
    received,
    issued,
    revokeTokens: () => tokens.clear(),
  };
}

/** An OAuth2 scheme's client-credentials flow, if it has one. */
function clientCredentialsOf(scheme: Scheme): { tokenUrl?: string } | undefined {
  if (scheme.type !== "oauth2") return undefined;
  return (scheme.flows as { clientCredentials?: { tokenUrl?: string } } | undefined)?.clientCredentials;
}

function describe(scheme: Scheme | undefined): string {
  if (!scheme) return "an undefined scheme";
  if (scheme.type === "apiKey") return `apiKey in ${String(scheme.in)} ${String(scheme.name)}`;
  if (scheme.type === "http") return `http ${String(scheme.scheme)}`;
  if (scheme.type === "oauth2")
    return clientCredentialsOf(scheme) ? "oauth2 bearer token" : "oauth2 access token as bearer";
  return String(scheme.type);
}
