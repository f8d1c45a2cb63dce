import { parseEnv } from "@switchboard/common";
import { z } from "zod";

const RagEnv = z.object({
  // CAIPE's switch: the supervisor takes the RAG server's tools (search, fetch_document, …).
  ENABLE_RAG: z.stringbool({ error: "set ENABLE_RAG to true or false" }).default(false),
  // CAIPE's name and default: the RAG server's base URL; its MCP endpoint is <url>/mcp, its health <url>/healthz.
  // No credentials in it: the server decides each call on the user's own token, and the URL is logged.
  RAG_SERVER_URL: z
    .url({
      protocol: /^https?$/,
      error: "use the RAG server's base URL, e.g. http://rag-server:9446",
    })
    .refine((url) => !new URL(url).username && !new URL(url).password, {
      error:
        "put no user name or password in RAG_SERVER_URL: the RAG server decides each call on the user's own token",
    })
    .default("http://localhost:9446"),
  // CAIPE waits 10 s between its connection checks; here the wait between checks while the server is down.
  RAG_CONNECTIVITY_WAIT_SECONDS: z.coerce
    .number({ error: "use a number of seconds, e.g. 10" })
    .positive({ error: "use a number of seconds above 0, e.g. 10" })
    .default(10),
});

/** The knowledge base the supervisor searches: a CAIPE RAG server, over MCP. */
export interface RagSettings {
  /** RAG_SERVER_URL without a trailing slash. */
  url: string;
  /** RAG_CONNECTIVITY_WAIT_SECONDS, in ms. */
  retryMs: number;
}

/** ENABLE_RAG and RAG_SERVER_URL, read once; undefined when ENABLE_RAG is not true. */
export function readRagSettings(env: NodeJS.ProcessEnv): RagSettings | undefined {
  const settings = parseEnv(RagEnv, env, { code: "supervisor.config", what: "knowledge base settings" });
  if (!settings.ENABLE_RAG) return undefined;
  return {
    url: settings.RAG_SERVER_URL.replace(/\/+$/, ""),
    retryMs: settings.RAG_CONNECTIVITY_WAIT_SECONDS * 1000,
  };
}
