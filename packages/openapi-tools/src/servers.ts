import { SwitchboardError } from "@switchboard/common";
import type { JsonObject } from "./description.js";

interface ServerVariable {
  default?: unknown;
  enum?: unknown[];
}

function configError(message: string): SwitchboardError {
  return new SwitchboardError("openapi.base-url", "user", message);
}

/**
 * The description's first server URL with its variables filled: each from `serverVariables` when
 * given, else its default; a value outside a variable's `enum` is refused naming the allowed ones,
 * as is a configured variable the server does not have.
 */
function describedUrl(
  label: string,
  resolved: JsonObject,
  values: Record<string, string>,
): { url?: string; missing: string[] } {
  const missing: string[] = [];
  const server = (
    (resolved.servers ?? []) as Array<{ url?: unknown; variables?: Record<string, ServerVariable> }>
  )[0];
  const variables = server?.variables ?? {};
  for (const name of Object.keys(values))
    if (!(name in variables))
      throw configError(
        `serverVariables.${name}: the first server of ${label} has no variable "${name}"; its variables are: ${Object.keys(variables).join(", ") || "none"}.`,
      );
  if (typeof server?.url !== "string") return { missing };
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    const value = values[name] ?? (variable?.default === undefined ? undefined : String(variable.default));
    if (value === undefined) {
      missing.push(name);
      return whole;
    }
    const allowed = Array.isArray(variable?.enum) ? variable.enum.map(String) : undefined;
    if (allowed && allowed.length > 0 && !allowed.includes(value))
      throw configError(
        `serverVariables.${name}: ${JSON.stringify(value)} is not one ${label} allows for its server; it takes: ${allowed.join(", ")}.`,
      );
    return value;
  });
  return { url, missing };
}

/**
 * The base URL calls go to: the configured one, else the description's first server (variables
 * filled, see describedUrl), made absolute against the URL the description came from. An http(s)
 * URL without credentials, query or fragment.
 */
export function baseUrlOf(
  label: string,
  resolved: JsonObject,
  options: {
    configured?: string | undefined;
    from?: string | undefined;
    serverVariables?: Record<string, string>;
  },
): URL {
  const { configured, from } = options;
  const { url: described, missing } = describedUrl(label, resolved, options.serverVariables ?? {});
  if (!configured && missing.length > 0)
    throw configError(
      `${label}'s server ${JSON.stringify(described)} has ${missing.length > 1 ? "variables" : "a variable"} without a default (${missing.join(", ")}): set serverVariables.${missing[0]}, or base_url.`,
    );
  const text = configured ?? described;
  let url: URL | undefined;
  try {
    url = text ? new URL(text, configured ? undefined : from) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    throw configError(
      configured
        ? `${label}: base URL ${JSON.stringify(configured)} is not an http(s) URL without credentials, query or fragment: set base_url to the API's address.`
        : `${label} names no absolute server${described ? ` (its first server is ${JSON.stringify(described)})` : ""}: set base_url to the API's address.`,
    );
  return url;
}
