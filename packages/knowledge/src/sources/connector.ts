import { type Logger, SwitchboardError } from "@switchboard/common";
import type { KeptDocument, KnowledgeDocument } from "../ingest.js";
import type { IngestSettings } from "../settings.js";
import type { SourceDefinition, SourceType } from "./definition.js";
import type { SourceHttp } from "./http.js";

/** What a connector is given: its source, the environment its credentials are read from, and HTTP. */
export interface ConnectorContext<S extends SourceDefinition = SourceDefinition> {
  source: S;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  http: SourceHttp;
  settings: IngestSettings;
  /** The source's versions of the documents the store holds (those given one), by id. */
  stored: Map<string, string>;
  /** Counts documents as they are listed, for the sync's progress. */
  listed(count: number): void;
}

/**
 * A whole listing of a source: the documents it has now, and those it listed but could not read
 * (kept as they were in the store, named in the sync status). A connector throws when it cannot list
 * the source at all; then nothing is removed.
 */
export interface Listing {
  documents: KnowledgeDocument[];
  failed: Array<{ id: string; error: string }>;
  /** Documents at the version the store holds: not read again, their link and readers brought up to date. */
  unchanged?: KeptDocument[];
}

export type Connector<S extends SourceDefinition> = (context: ConnectorContext<S>) => Promise<Listing>;

export type SourceConnectors = { [T in SourceType]: Connector<Extract<SourceDefinition, { type: T }>> };

/** A credential a source names by its variable (`token_env`): missing or empty is an error with the fix. */
export function credential(env: NodeJS.ProcessEnv, variable: string, source: SourceDefinition): string {
  const value = env[variable]?.trim();
  if (!value) {
    throw new SwitchboardError(
      "knowledge.source.credential",
      "user",
      `Source "${source.id}" reads its credential from ${variable}, which is not set: set ${variable}, ` +
        "or name another variable in the source's token_env.",
    );
  }
  return value;
}
