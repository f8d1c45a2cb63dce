import { SwitchboardError } from "@switchboard/common";
import type { JsonObject } from "./description.js";
import type { OAuthTokens } from "./oauth2.js";
import type { SecurityRequirement } from "./operations.js";

/** How one configured security scheme's credential is sent. */
export interface Credential {
  scheme: string;
  send:
    | { in: "header" | "query" | "cookie"; name: string }
    | { in: "bearer" }
    | { in: "basic" }
    /** OAuth2 client credentials: a token from `tokenUrl`, sent as bearer. */
    | { in: "oauth2"; tokenUrl: URL };
  /** The `auth` value: text with `${VAR}` references, filled from the env at call time. */
  template: string;
  /** The variables it names. */
  variables: string[];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function configError(message: string): SwitchboardError {
  return new SwitchboardError("openapi.auth", "user", message);
}

/** Where the description came from and where the API is: what decides which token URLs are trusted. */
export interface CredentialsContext {
  baseUrl: URL;
  /** The URL the description was fetched from; unset for a file or an object (the operator's own). */
  descriptionUrl?: string;
  /** Token URLs given in the configuration, by scheme: used instead of the description's, and trusted. */
  tokenUrls?: Record<string, string>;
}

/**
 * The `auth` setting checked against the description's security schemes: each key a scheme it
 * defines and Switchboard can send (apiKey in a header, the query or a cookie; HTTP bearer or basic;
 * OAuth2 client credentials; OAuth2's other flows as an access token obtained elsewhere, sent as
 * bearer), each value naming its secret as `${VAR}` (basic: `${USER_VAR}:${PASSWORD_VAR}`, OAuth2
 * client credentials: `${CLIENT_ID_VAR}:${CLIENT_SECRET_VAR}`), never holding it:
 * a secret written into a definition would be stored and shown wherever the definition is.
 */
export function readCredentials(
  label: string,
  resolved: JsonObject,
  auth: Record<string, string>,
  context: CredentialsContext,
): Map<string, Credential> {
  const schemes = ((resolved.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
  for (const scheme of Object.keys(context.tokenUrls ?? {}))
    if (!(scheme in auth))
      throw configError(
        `tokenUrls.${scheme}: no auth.${scheme} is configured, so no token is asked for: remove it, or add auth.${scheme}.`,
      );
  const credentials = new Map<string, Credential>();
  for (const [scheme, template] of Object.entries(auth)) {
    const defined = schemes[scheme];
    if (!defined)
      throw configError(
        `auth.${scheme}: ${label} defines no security scheme "${scheme}"; its schemes are: ${Object.keys(schemes).join(", ") || "none"}.`,
      );
    const variables = [...String(template).matchAll(REFERENCE)].map((match) => match[1] as string);
    if (variables.length === 0)
      throw configError(
        `auth.${scheme} must name the environment variable that holds the secret, as \${VAR} (e.g. "\${${scheme.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_KEY}"), not the secret itself.`,
      );
    const send = sendOf(label, scheme, defined, String(template), context);
    if (send.in === "oauth2" && !clientPair(String(template)))
      throw configError(
        `auth.${scheme}: an OAuth2 client-credentials scheme takes "\${CLIENT_ID_VAR}:\${CLIENT_SECRET_VAR}", the variables holding the client's id and secret.`,
      );
    credentials.set(scheme, { scheme, send, template: String(template), variables });
  }
  return credentials;
}

function describeScheme(scheme: JsonObject): string {
  const flows = scheme.flows && typeof scheme.flows === "object" ? Object.keys(scheme.flows) : [];
  return [
    String(scheme.type),
    scheme.scheme ? String(scheme.scheme) : "",
    scheme.in ? `in ${String(scheme.in)}` : "",
    flows.length > 0 ? `flows ${flows.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function sendOf(
  label: string,
  name: string,
  scheme: JsonObject,
  template: string,
  context: CredentialsContext,
): Credential["send"] {
  if (
    scheme.type === "apiKey" &&
    (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie") &&
    typeof scheme.name === "string"
  )
    return { in: scheme.in, name: scheme.name };
  const http = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
  if (scheme.type === "http" && http === "bearer") return { in: "bearer" };
  if (scheme.type === "http" && http === "basic") return { in: "basic" };
  const flows = (scheme.flows ?? {}) as { clientCredentials?: { tokenUrl?: unknown } } & JsonObject;
  if (scheme.type === "oauth2" && flows.clientCredentials && (clientPair(template) || !userFlowOf(flows)))
    return { in: "oauth2", tokenUrl: tokenUrlOf(label, name, flows.clientCredentials.tokenUrl, context) };
  // Authorization code, implicit, password: a user's access token obtained elsewhere (Slack's bot
  // token, Box's developer token), sent as the flows' tokens are, as a bearer token.
  if (scheme.type === "oauth2" && userFlowOf(flows)) return { in: "bearer" };
  throw configError(
    `auth.${name}: the "${name}" scheme (${describeScheme(scheme)}) is not one Switchboard sends; it sends apiKey (header, query or cookie), HTTP bearer and basic, OAuth2 client credentials, and an access token of OAuth2's other flows. Remove auth.${name}, or configure another scheme of ${label}.`,
  );
}

/** The OAuth2 flow (other than client credentials) a scheme has, whose access token `auth` may hold. */
function userFlowOf(flows: JsonObject): string | undefined {
  return ["authorizationCode", "implicit", "password"].find((flow) => flows[flow]);
}

/** Whether an `auth` value names a client's id and secret (`${ID}:${SECRET}`). */
function clientPair(template: string): boolean {
  return /^[^:]*\$\{[^}]+\}[^:]*:.*\$\{[^}]+\}/.test(template);
}

/**
 * Where an OAuth2 scheme's client secret is sent: the configured `tokenUrls` entry, else the flow's
 * `tokenUrl` (a relative one read against the base URL). A description fetched from a URL may name
 * only a token URL on the API's own origin: another origin (a private address, say) would receive
 * the client secret on the word of whoever serves the description. A file or an object is the
 * operator's own, and its token URL is taken as written.
 */
function tokenUrlOf(label: string, scheme: string, described: unknown, context: CredentialsContext): URL {
  const configured = context.tokenUrls?.[scheme];
  const text = configured ?? (typeof described === "string" ? described : "");
  let url: URL | undefined;
  try {
    url = new URL(text, configured ? undefined : context.baseUrl);
  } catch {
    url = undefined;
  }
  const where = configured
    ? `tokenUrls.${scheme}`
    : `the clientCredentials tokenUrl of "${scheme}" in ${label}`;
  if (!text || !url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.hash)
    throw configError(
      `auth.${scheme}: ${where} (${JSON.stringify(text.slice(0, 200))}) is not an http(s) URL without credentials: set tokenUrls.${scheme} to the token endpoint.`,
    );
  if (!configured && context.descriptionUrl && url.origin !== context.baseUrl.origin)
    throw configError(
      `auth.${scheme}: ${where} is on ${url.origin}, not the API's origin ${context.baseUrl.origin}; a description fetched from a URL sends the client secret only to the API's own origin: set tokenUrls.${scheme} to the token endpoint if ${url.origin} is the right one.`,
    );
  return url;
}

/**
 * The credentials one operation is called with. None for `security: []` or an operation under no
 * requirement. Else the first requirement the configured schemes satisfy whole (one naming schemes
 * before `{}`, which says the API also takes calls without); when none is satisfied (the operation
 * names only schemes Switchboard does not send, such as OAuth2), every configured credential: they
 * go to the configured host only, and what the API makes of them its answer says.
 */
export function credentialsFor(
  requirements: SecurityRequirement[],
  configured: Map<string, Credential>,
): ChosenCredential[] {
  if (requirements.length === 0) return [];
  const named = requirements.filter((requirement) => Object.keys(requirement).length > 0);
  const satisfied = named.find((requirement) =>
    Object.keys(requirement).every((scheme) => configured.has(scheme)),
  );
  if (satisfied)
    return Object.entries(satisfied).map(([scheme, scopes]) => ({
      credential: configured.get(scheme) as Credential,
      scopes: Array.isArray(scopes) ? scopes.map(String) : [],
    }));
  if (named.length < requirements.length) return [];
  return [...configured.values()].map((credential) => ({ credential, scopes: [] }));
}

/** A credential chosen for a call, with the scopes its requirement names (an OAuth2 token asks for them). */
export interface ChosenCredential {
  credential: Credential;
  scopes: string[];
}

/** What a request carries for its credentials. */
export interface SentCredentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
  cookies: Array<[string, string]>;
}

/**
 * The credentials filled from the env, at call time: a variable unset or empty is an error naming
 * it (and the `auth` entry that refers to it); its value appears in no message.
 */
export async function fillCredentials(
  chosen: ChosenCredential[],
  env: NodeJS.ProcessEnv,
  context: { api: string; tool: string; tokens: OAuthTokens },
): Promise<SentCredentials> {
  const sent: SentCredentials = { headers: {}, query: [], cookies: [] };
  for (const { credential, scopes } of chosen) {
    const missing = credential.variables.filter((name) => !env[name]);
    if (missing.length > 0)
      throw new SwitchboardError(
        "openapi.credentials",
        "user",
        `${context.tool} needs ${missing.join(" and ")} (auth.${credential.scheme} of ${context.api}), which ${missing.length > 1 ? "are" : "is"} not set: set ${missing.length > 1 ? "them" : "it"} in the agent's environment.`,
      );
    const value = credential.template.replace(REFERENCE, (_whole, name: string) => env[name] ?? "");
    const { send } = credential;
    if (send.in === "bearer") sent.headers.authorization = `Bearer ${value}`;
    else if (send.in === "basic")
      sent.headers.authorization = `Basic ${Buffer.from(value).toString("base64")}`;
    else if (send.in === "oauth2") {
      const token = await context.tokens.token(credential, clientOf(value), scopes);
      sent.headers.authorization = `Bearer ${token}`;
    } else if (send.in === "header") sent.headers[send.name.toLowerCase()] = value;
    else if (send.in === "cookie") sent.cookies.push([send.name, value]);
    else sent.query.push([send.name, value]);
  }
  return sent;
}

/** `id:secret` as the client's id and secret (an id holds no `:`, as in HTTP basic). */
export function clientOf(value: string): { id: string; secret: string } {
  const at = value.indexOf(":");
  return { id: value.slice(0, at), secret: value.slice(at + 1) };
}

/** Every value the configured credentials may send: what no message may show. */
export function secretsOf(configured: Map<string, Credential>, env: NodeJS.ProcessEnv): string[] {
  const secrets: string[] = [];
  for (const credential of configured.values()) {
    for (const name of credential.variables) {
      const value = env[name];
      if (value) secrets.push(value);
    }
    const filled = credential.template.replace(REFERENCE, (_whole, name: string) => env[name] ?? "");
    if (filled) {
      secrets.push(filled);
      if (credential.send.in === "basic") secrets.push(Buffer.from(filled).toString("base64"));
      if (credential.send.in === "oauth2") {
        const { id, secret } = clientOf(filled);
        if (secret) secrets.push(secret);
        secrets.push(basicOf(id, secret).slice("Basic ".length));
      }
    }
  }
  return secrets;
}

/** A client's HTTP basic header for a token request: id and secret form-encoded first (RFC 6749 2.3.1). */
export function basicOf(id: string, secret: string): string {
  const encoded = (text: string) => new URLSearchParams({ v: text }).toString().slice(2);
  return `Basic ${Buffer.from(`${encoded(id)}:${encoded(secret)}`).toString("base64")}`;
}
