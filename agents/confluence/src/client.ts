import { httpsAgentFor, VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import type { ConfluenceClient } from "confluence.js";
import { type ConfluenceSettings, readConfluenceSettings } from "./env.js";

export type ConfluenceConnection = VendorClient<ConfluenceClient, ConfluenceSettings>;

/** Confluence Cloud through confluence.js (REST API v1): what is particular to it; the runtime does the rest. */
export function confluenceConnection(env: NodeJS.ProcessEnv): ConfluenceConnection {
  return new VendorClient(
    {
      vendor: "Confluence",
      code: "confluence",
      settings: readConfluenceSettings,
      connect: async ({ url, email, token, verifyTls }) => {
        const { ConfluenceClient } = await import("confluence.js");
        return new ConfluenceClient({
          host: url,
          authentication: { basic: { email, apiToken: token } },
          baseRequestConfig: { httpsAgent: httpsAgentFor(verifyTls) },
        });
      },
      names: ({ url }) => ({
        url,
        credentials: "CONFLUENCE_USERNAME and CONFLUENCE_API_TOKEN",
        address: "CONFLUENCE_API_URL",
        permissionHint: "the account may not see this space",
      }),
      secrets: ({ token }) => [token],
      classify: confluenceFailure,
    },
    env,
  );
}

/**
 * confluence.js rejects with Confluence's error body, `{ statusCode, message }`. When nothing
 * answered, it reads the body of a response that does not exist and throws that TypeError instead,
 * from its client's sendRequest (known by that name: the agent runs bundled, so file paths say nothing).
 */
function confluenceFailure(error: unknown): Partial<VendorFailure> | undefined {
  if (
    error instanceof TypeError &&
    /reading 'data'/.test(error.message) &&
    /\bConfluenceClient\.sendRequest\b/.test(error.stack ?? "")
  ) {
    return { kind: "unreachable", reason: "no answer" };
  }
  const { statusCode, message } = (error ?? {}) as { statusCode?: unknown; message?: unknown };
  if (typeof statusCode !== "number") return undefined;
  return { status: statusCode, ...(typeof message === "string" && message ? { detail: message } : {}) };
}
