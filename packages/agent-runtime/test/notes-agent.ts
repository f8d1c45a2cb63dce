import { join } from "node:path";
import { createLogger, type Logger } from "@switchboard/common";
import { notesAgent as sharedNotesAgent } from "@switchboard-testing/agent-conformance";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv } from "@switchboard-testing/test-mongo";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { NOTES_MAIN } from "./notes-bundle.js";

/** The shared notes agent (see @switchboard-testing/agent-conformance), on this package's sources. */
export function notesAgent(notes: string[]): AgentDefinition {
  return sharedNotesAgent(notes);
}

export interface NotesAgentOptions {
  llm: ScriptedLlm;
  /** Database in the test MongoDB; leave out to give MONGODB_URI in `env` yourself. */
  dbName?: string;
  notes?: string[];
  env?: Record<string, string>;
  logger?: Logger;
}

/** Serves the notes agent in this process on a free loopback port, with its scripted LLM. */
export function serveNotesAgent(options: NotesAgentOptions): Promise<RunningAgent> {
  return serveAgent(notesAgent(options.notes ?? []), {
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      AGENT_NAME: "notes",
      ...(options.dbName ? testMongoEnv(options.dbName) : {}),
      ...options.llm.env,
      ...options.env,
    },
    logger: options.logger ?? createLogger({ level: "silent" }),
  });
}

export interface NotesProcessOptions {
  llm: ScriptedLlm;
  /** Database in the test MongoDB that every replica started with it shares. */
  dbName: string;
  env?: Record<string, string>;
}

/** The notes agent as an OS process of its own (test/fixtures/notes-main.ts, bundled): one replica. */
export function startNotesProcess(options: NotesProcessOptions): Promise<AgentProcess> {
  return startAgentProcess(join(import.meta.dirname, ".."), {
    entry: NOTES_MAIN,
    env: { AGENT_NAME: "notes", ...testMongoEnv(options.dbName), ...options.llm.env, ...options.env },
  });
}
