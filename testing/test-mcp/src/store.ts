import { existsSync, readFileSync, writeFileSync } from "node:fs";

export interface Ticket {
  id: string;
  title: string;
  status: "open" | "closed";
}

/** What the ticket desk holds, and what tests read back: every tool call and each process that served. */
export interface DeskState {
  tickets: Ticket[];
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  /** Process ids of the servers that used this file, in start order (a stdio server's pid, for killing it). */
  pids: number[];
}

const EMPTY: DeskState = {
  tickets: [{ id: "T-1", title: "Rotate the TLS certificates", status: "open" }],
  calls: [],
  pids: [],
};

/**
 * The desk's state in a JSON file, so it outlives a server restart and a test can read it from
 * outside the server's process. Read and written whole on each change: one server uses it at a time.
 */
export class DeskStore {
  constructor(readonly file: string) {}

  read(): DeskState {
    if (!existsSync(this.file)) return structuredClone(EMPTY);
    return JSON.parse(readFileSync(this.file, "utf8")) as DeskState;
  }

  update(change: (state: DeskState) => void): DeskState {
    const state = this.read();
    change(state);
    writeFileSync(this.file, JSON.stringify(state, null, 2));
    return state;
  }
}
