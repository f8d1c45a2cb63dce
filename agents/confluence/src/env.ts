import { verifiesTls } from "@switchboard/agent-runtime";
import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface ConfluenceSettings {
  /** The site, e.g. https://your-company.atlassian.net (confluence.js adds /wiki/rest/api). */
  url: string;
  email: string;
  token: string;
  /** False only with ATLASSIAN_VERIFY_SSL=false (CAIPE's setting for Jira and Confluence). */
  verifyTls: boolean;
}

const ConfluenceEnv = z.object({
  CONFLUENCE_API_URL: baseUrlSetting(undefined, "/wiki"),
  CONFLUENCE_USERNAME: z.string().trim(),
  CONFLUENCE_API_TOKEN: z.string().trim(),
});

/**
 * Confluence Cloud credentials under CAIPE's names, in its Confluence client's order of precedence
 * (the shared Atlassian account first for email and token, the Confluence URL first for the site);
 * a missing one fails the turn that needs it, naming it.
 */
export function readConfluenceSettings(env: NodeJS.ProcessEnv): ConfluenceSettings {
  const e = parseEnv(ConfluenceEnv, env, {
    code: "confluence.credentials",
    what: "Confluence settings",
    aliases: {
      CONFLUENCE_API_URL: ["CONFLUENCE_API_URL", "ATLASSIAN_API_URL", "CONFLUENCE_URL"],
      CONFLUENCE_USERNAME: ["ATLASSIAN_EMAIL", "CONFLUENCE_EMAIL", "CONFLUENCE_USER", "CONFLUENCE_USERNAME"],
      CONFLUENCE_API_TOKEN: [
        "ATLASSIAN_TOKEN",
        "ATLASSIAN_API_TOKEN",
        "CONFLUENCE_API_TOKEN",
        "CONFLUENCE_TOKEN",
      ],
    },
    unset: notConfigured(
      "Confluence",
      "your site URL such as https://your-company.atlassian.net, the account email, and an Atlassian API token",
    ),
  });
  return {
    url: e.CONFLUENCE_API_URL,
    email: e.CONFLUENCE_USERNAME,
    token: e.CONFLUENCE_API_TOKEN,
    verifyTls: verifiesTls(env, "ATLASSIAN_VERIFY_SSL"),
  };
}
