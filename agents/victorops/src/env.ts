import { parseEnv } from "@switchboard/common";
import { z } from "zod";

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

const baseUrl = (url: string | undefined) => (url?.trim() || DEFAULT_VICTOROPS_API_URL).replace(/\/+$/, "");

const SHAPE = 'a JSON object of org slug → {"api_url", "api_id", "api_key"}';

/** VICTOROPS_ORGS: each organisation's URL, id and key. Its messages never repeat the text (keys). */
const Orgs = z.string().transform((text, ctx): VictorOpsOrg[] => {
  const problem = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, keys and all: it is not repeated.
    return problem(`VICTOROPS_ORGS is not valid JSON: set it to ${SHAPE}.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return problem(`VICTOROPS_ORGS is not ${SHAPE}.`);
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0) return problem(`VICTOROPS_ORGS names no organisation: set it to ${SHAPE}.`);
  const orgs: VictorOpsOrg[] = [];
  for (const [slug, value] of entries) {
    const org = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    const field = (key: string) => (typeof org[key] === "string" ? (org[key] as string).trim() : "");
    const missing = ["api_id", "api_key"].filter((key) => !field(key));
    if (missing.length > 0)
      return problem(`VICTOROPS_ORGS org "${slug}" is missing ${missing.join(" and ")}.`);
    orgs.push({ slug, url: baseUrl(field("api_url")), apiId: field("api_id"), apiKey: field("api_key") });
  }
  return orgs;
});

const text = z.string().trim().optional();

const VictorOpsEnv = z
  .object({
    VICTOROPS_ORGS: Orgs.optional(),
    VICTOROPS_API_URL: text,
    X_VO_API_ID: text,
    X_VO_API_KEY: text,
    VICTOROPS_USERNAME: text,
  })
  .transform((e, ctx): VictorOpsSettings => {
    const username = e.VICTOROPS_USERNAME;
    if (e.VICTOROPS_ORGS) return { orgs: e.VICTOROPS_ORGS, source: "VICTOROPS_ORGS", username };
    const { X_VO_API_ID: apiId, X_VO_API_KEY: apiKey } = e;
    if (!apiId || !apiKey) {
      const missing = [...(apiId ? [] : ["X_VO_API_ID"]), ...(apiKey ? [] : ["X_VO_API_KEY"])];
      ctx.addIssue({
        code: "custom",
        message:
          `The VictorOps agent is not configured: set ${missing.join(", ")} (the API ID and an API key ` +
          "from Splunk On-Call's Integrations > API page), or VICTOROPS_ORGS for several organisations.",
      });
      return z.NEVER;
    }
    return {
      orgs: [{ slug: "default", url: baseUrl(e.VICTOROPS_API_URL), apiId, apiKey }],
      source: "X_VO_API_ID",
      username,
    };
  });

/**
 * Splunk On-Call settings under CAIPE's names: several organisations in VICTOROPS_ORGS (a JSON object
 * of org slug → `{ api_url, api_id, api_key }`), else one from VICTOROPS_API_URL, X_VO_API_ID and
 * X_VO_API_KEY. What is missing or malformed fails the turn that needs it, naming it (never a key).
 */
export function readVictorOpsSettings(env: NodeJS.ProcessEnv): VictorOpsSettings {
  return parseEnv(VictorOpsEnv, env, { code: "victorops.credentials", what: "VictorOps settings" });
}
