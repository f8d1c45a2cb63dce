import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import type { AuditFilter, AuditLog } from "./audit-log.js";
import type { AuditEntry, ChainedEntry } from "./entry.js";

/**
 * Where the head of the trail is, kept outside the database: one JSON line per audit line, written
 * as the line is stored. A database writer can delete or rewrite lines in MongoDB but not what left
 * the process; `audit:verify --anchor` then finds the lines it no longer holds or holds changed.
 */
export const Anchor = z.object({
  agent: z.string(),
  seq: z.number().int().positive(),
  link: z.string(),
  keyId: z.string().optional(),
  /** The line's own time (`at`): what retention is judged by. */
  time: z.string(),
});
export type Anchor = z.infer<typeof Anchor>;

/**
 * AUDIT_ANCHOR_FILE, opened for appending (O_APPEND, so replicas or agents sharing one file on one
 * host never interleave inside a line). Each anchor is one write(2) of one short line into the page
 * cache: it survives the process dying the moment after, and costs microseconds, not the
 * milliseconds an fsync per line would add to every audited call. A host crash may lose the last
 * seconds of anchors; the verifier then reports the stored lines past the anchored head, never
 * a false truncation.
 */
export class AnchorFile {
  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {}

  static open(path: string): AnchorFile {
    try {
      return new AnchorFile(path, openSync(path, "a", 0o600));
    } catch (error) {
      throw new SwitchboardError(
        "audit.anchor",
        "user",
        `AUDIT_ANCHOR_FILE=${path} cannot be opened for appending (${(error as Error).message}): give a writable path on storage the database's users cannot write, or leave it unset.`,
      );
    }
  }

  write(anchor: Anchor): void {
    writeSync(this.fd, `${JSON.stringify(anchor)}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * An audit log whose every stored line is also anchored. Should the anchor fail to be written, the
 * append fails: an attempt then never runs its change (recorder.ts writes it before), so nothing
 * happens that the anchor does not know about.
 */
export class AnchoredAuditLog implements AuditLog {
  constructor(
    private readonly inner: AuditLog,
    private readonly anchor: AnchorFile,
  ) {}

  async append(entry: AuditEntry): Promise<ChainedEntry> {
    const line = await this.inner.append(entry);
    try {
      this.anchor.write({
        agent: line.agent,
        seq: line.seq,
        link: line.hash,
        ...(line.keyId ? { keyId: line.keyId } : {}),
        time: line.at,
      });
    } catch (error) {
      throw new SwitchboardError(
        "audit.anchor",
        "system",
        `Audit line ${line.seq} is stored but cannot be anchored in AUDIT_ANCHOR_FILE=${this.anchor.path}: ${(error as Error).message}`,
      );
    }
    return line;
  }

  read(filter: AuditFilter): Promise<ChainedEntry[]> {
    return this.inner.read(filter);
  }

  all(): AsyncIterable<ChainedEntry> {
    return this.inner.all();
  }
}

/** Anchors read back from files, and how many lines of them could not be read (a torn last line). */
export interface AnchorReading {
  anchors: Anchor[];
  unreadable: Array<{ file: string; line: number }>;
}

/**
 * Reads anchor files (one per host or replica that wrote one, or a log exported from where
 * /dev/stdout went); a missing file is an error.
 */
export function readAnchorFiles(files: string[]): AnchorReading {
  const reading: AnchorReading = { anchors: [], unreadable: [] };
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new SwitchboardError(
        "audit.anchor",
        "user",
        `Cannot read the anchor file ${file} (${(error as Error).message}): give the AUDIT_ANCHOR_FILE the agents write (--anchor <file>).`,
      );
    }
    text.split("\n").forEach((row, index) => {
      if (row.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(row);
      } catch {
        reading.unreadable.push({ file, line: index + 1 });
        return;
      }
      // AUDIT_ANCHOR_FILE=/dev/stdout puts anchors in the container's log beside the agent's own
      // JSON log lines: those are not anchors and are passed over.
      if (typeof value !== "object" || value === null || !("link" in value)) return;
      const anchor = Anchor.safeParse(value);
      if (anchor.success) reading.anchors.push(anchor.data);
      else reading.unreadable.push({ file, line: index + 1 });
    });
  }
  return reading;
}
