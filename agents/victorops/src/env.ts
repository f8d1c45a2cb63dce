import { SwitchboardError } from "@switchboard/common";

/** One Splunk On-Call organisation: its API and the id and key it takes. */
export interface VictorOpsOrg {
  /** How people and policies name it: its key in VICTOROPS_ORGS, `default` for the single-org settings. */
  slug: string;
  /** The public API's base, without a trailing slash. */
  url: string;
  apiId: string;
  apiKey: string;
}

export interface VictorOpsSettings {
  /** One or more organisations, in the order VICTOROPS_ORGS lists them. */
  orgs: VictorOpsOrg[];
  /** Where they came from, for the messages that say what to check. */
  source: "VICTOROPS_ORGS" | "X_VO_API_ID";
  /** The Splunk On-Call user changes are made as; unset, the change tools say to set it. */
  username: string | undefined;
}

export const DEFAULT_VICTOROPS_API_URL = "https://api.victorops.com";

const notConfigured = (message: string) => new SwitchboardError("victorops.credentials", "user", message);
const baseUrl = (url: string | undefined) => (url?.trim() || DEFAULT_VICTOROPS_API_URL).replace(/\/+$/, "");

/**
 * Splunk On-Call settings under CAIPE's names: several organisations in VICTOROPS_ORGS (a JSON object
 * of org slug → `{ api_url, api_id, api_key }`), else one from VICTOROPS_API_URL, X_VO_API_ID and
 * X_VO_API_KEY. What is missing or malformed fails the turn that needs it, naming it (never a key).
 */
export function readVictorOpsSettings(env: NodeJS.ProcessEnv): VictorOpsSettings {
  const username = env.VICTOROPS_USERNAME?.trim() || undefined;
  const orgs = env.VICTOROPS_ORGS?.trim();
  if (orgs) return { orgs: parseOrgs(orgs), source: "VICTOROPS_ORGS", username };
  const apiId = env.X_VO_API_ID?.trim() ?? "";
  const apiKey = env.X_VO_API_KEY?.trim() ?? "";
  const missing = [...(apiId ? [] : ["X_VO_API_ID"]), ...(apiKey ? [] : ["X_VO_API_KEY"])];
  if (missing.length > 0) {
    throw notConfigured(
      `The VictorOps agent is not configured: set ${missing.join(", ")} (the API ID and an API key ` +
        "from Splunk On-Call's Integrations > API page), or VICTOROPS_ORGS for several organisations.",
    );
  }
  return {
    orgs: [{ slug: "default", url: baseUrl(env.VICTOROPS_API_URL), apiId, apiKey }],
    source: "X_VO_API_ID",
    username,
  };
}

const SHAPE = 'a JSON object of org slug → {"api_url", "api_id", "api_key"}';

function parseOrgs(text: string): VictorOpsOrg[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, keys and all: it is not repeated.
    throw notConfigured(`VICTOROPS_ORGS is not valid JSON: set it to ${SHAPE}.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw notConfigured(`VICTOROPS_ORGS is not ${SHAPE}.`);
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0) throw notConfigured(`VICTOROPS_ORGS names no organisation: set it to ${SHAPE}.`);
  return entries.map(([slug, value]) => {
    const org = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    const text = (key: string) => (typeof org[key] === "string" ? (org[key] as string).trim() : "");
    const missing = ["api_id", "api_key"].filter((key) => !text(key));
    if (missing.length > 0)
      throw notConfigured(`VICTOROPS_ORGS org "${slug}" is missing ${missing.join(" and ")}.`);
    return { slug, url: baseUrl(text("api_url")), apiId: text("api_id"), apiKey: text("api_key") };
  });
}
