import { SwitchboardError } from "@switchboard/common";
import type { JsonObject } from "./description.js";
import type { SecurityRequirement } from "./operations.js";

/** How one configured security scheme's credential is sent. */
export interface Credential {
  scheme: string;
  send: { in: "header" | "query"; name: string } | { in: "bearer" } | { in: "basic" };
  /** The `auth` value: text with `${VAR}` references, filled from the env at call time. */
  template: string;
  /** The variables it names. */
  variables: string[];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function configError(message: string): SwitchboardError {
  return new SwitchboardError("openapi.auth", "user", message);
}

/**
 * The `auth` setting checked against the description's security schemes: each key a scheme it
 * defines and Switchboard can send (apiKey in a header or the query, HTTP bearer or basic), each
 * value naming its secret as `${VAR}` (basic: `${USER_VAR}:${PASSWORD_VAR}`), never holding it: a
 * secret written into a definition would be stored and shown wherever the definition is.
 */
export function readCredentials(
  label: string,
  resolved: JsonObject,
  auth: Record<string, string>,
): Map<string, Credential> {
  const schemes = ((resolved.components as JsonObject | undefined)?.securitySchemes ?? {}) as Record<
    string,
    JsonObject
  >;
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
    const send = sendOf(defined);
    if (!send)
      throw configError(
        `auth.${scheme}: the "${scheme}" scheme (${String(defined.type)}${defined.scheme ? ` ${String(defined.scheme)}` : ""}${defined.in ? ` in ${String(defined.in)}` : ""}) is not one Switchboard sends; it sends apiKey (header or query), HTTP bearer and HTTP basic.`,
      );
    credentials.set(scheme, { scheme, send, template: String(template), variables });
  }
  return credentials;
}

function sendOf(scheme: JsonObject): Credential["send"] | undefined {
  if (
    scheme.type === "apiKey" &&
    (scheme.in === "header" || scheme.in === "query") &&
    typeof scheme.name === "string"
  )
    return { in: scheme.in, name: scheme.name };
  const http = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
  if (scheme.type === "http" && http === "bearer") return { in: "bearer" };
  if (scheme.type === "http" && http === "basic") return { in: "basic" };
  return undefined;
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
): Credential[] {
  if (requirements.length === 0) return [];
  const named = requirements.filter((requirement) => Object.keys(requirement).length > 0);
  const satisfied = named.find((requirement) =>
    Object.keys(requirement).every((scheme) => configured.has(scheme)),
  );
  if (satisfied) return Object.keys(satisfied).map((scheme) => configured.get(scheme) as Credential);
  if (named.length < requirements.length) return [];
  return [...configured.values()];
}

/** What a request carries for its credentials. */
export interface SentCredentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
}

/**
 * The credentials filled from the env, at call time: a variable unset or empty is an error naming
 * it (and the `auth` entry that refers to it); its value appears in no message.
 */
export function fillCredentials(
  credentials: Credential[],
  env: NodeJS.ProcessEnv,
  context: { api: string; tool: string },
): SentCredentials {
  const sent: SentCredentials = { headers: {}, query: [] };
  for (const credential of credentials) {
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
    else if (send.in === "header") sent.headers[send.name.toLowerCase()] = value;
    else sent.query.push([send.name, value]);
  }
  return sent;
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
    }
  }
  return secrets;
}
