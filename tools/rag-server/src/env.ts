import { readFileSync } from "node:fs";
import { type AuthzSettings, readAuthzSettings } from "@switchboard/agent-runtime";
import { type AuthSettings, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import {
  type KnowledgeSettings,
  readKnowledgeSettings,
  readSourcesFile,
  type SourceDefinition,
} from "@switchboard/knowledge";
import { z } from "zod";

/** CAIPE's RAG server's port: the supervisor's RAG_SERVER_URL default (http://localhost:9446). */
export const RAG_SERVER_PORT = 9446;

const RagServerEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(RAG_SERVER_PORT),
  HOST: z.string().default("0.0.0.0"),
  /** The sources to ingest (YAML, `sources:`): what each is, who reads it, when it syncs. */
  KNOWLEDGE_SOURCES_FILE: z.string().trim().min(1).optional(),
  /**
   * CAIPE's: every /mcp request must carry a valid user token (401 otherwise), the tool listing
   * included. Default false here: a request without a token reads only what everyone may read.
   */
  MCP_AUTH_ENABLED: z.stringbool({ error: "set MCP_AUTH_ENABLED to true or false" }).default(false),
  /** CAIPE's limit on one uploaded file (10 MiB). */
  MAX_LOCAL_FILE_UPLOAD_BYTES: z.coerce
    .number({ error: "use a number of bytes, e.g. 10485760" })
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  /**
   * How long a replica holds a source's sync without renewing it: a replica that dies mid-sync is
   * noticed this long after, and another may sync the source.
   */
  KNOWLEDGE_SYNC_LEASE_SECONDS: z.coerce.number().int().min(5).default(60),
});

export interface RagServerSettings {
  port: number;
  host: string;
  /** The sources KNOWLEDGE_SOURCES_FILE defines (none without it: the store is searched as it is). */
  sources: SourceDefinition[];
  sourcesFile: string | undefined;
  requireToken: boolean;
  maxUploadBytes: number;
  syncLeaseMs: number;
  knowledge: KnowledgeSettings;
  /** How users' tokens are verified: as the agents verify them (AUTH_*). */
  auth: AuthSettings;
  /** The policies (AUTHZ_POLICY_FILE, RBAC_*) and where a token's groups are (OIDC_GROUP_CLAIM). */
  authz: AuthzSettings;
}

export function readRagServerSettings(env: NodeJS.ProcessEnv): RagServerSettings {
  const e = parseEnv(RagServerEnv, env, { code: "rag-server.config", what: "RAG server settings" });
  const auth = readAuthSettings(env, "rag-server");
  if (e.MCP_AUTH_ENABLED && auth.mode !== "jwt") {
    throw new SwitchboardError(
      "rag-server.config",
      "user",
      "MCP_AUTH_ENABLED=true needs AUTH_MODE=jwt (with AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE) to verify the tokens it asks for.",
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    sources: e.KNOWLEDGE_SOURCES_FILE ? readSources(e.KNOWLEDGE_SOURCES_FILE) : [],
    sourcesFile: e.KNOWLEDGE_SOURCES_FILE,
    requireToken: e.MCP_AUTH_ENABLED,
    maxUploadBytes: e.MAX_LOCAL_FILE_UPLOAD_BYTES,
    syncLeaseMs: e.KNOWLEDGE_SYNC_LEASE_SECONDS * 1000,
    knowledge: readKnowledgeSettings(env),
    auth,
    authz: readAuthzSettings(env),
  };
}

function readSources(file: string): SourceDefinition[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new SwitchboardError(
      "rag-server.config",
      "user",
      `KNOWLEDGE_SOURCES_FILE=${file} cannot be read (${reason}): point it at a YAML file with a sources: list.`,
    );
  }
  try {
    return readSourcesFile(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SwitchboardError("rag-server.config", "user", `KNOWLEDGE_SOURCES_FILE=${file}: ${reason}`, {
      cause: error,
    });
  }
}
