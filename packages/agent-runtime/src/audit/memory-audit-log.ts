import { type AuditFilter, type AuditLog, DEFAULT_AUDIT_LIMIT } from "./audit-log.js";
import { chained } from "./chain.js";
import type { AuditEntry, ChainedEntry } from "./entry.js";
import type { AuditKey } from "./key.js";

/** The audit trail of an agent without MongoDB: in this process only, like its conversations. */
export class MemoryAuditLog implements AuditLog {
  private readonly lines: ChainedEntry[] = [];

  constructor(private readonly key?: AuditKey) {}

  async append(entry: AuditEntry): Promise<ChainedEntry> {
    const line = chained(this.lines.length + 1, this.lines.at(-1)?.hash ?? "", entry, this.key);
    this.lines.push(line);
    return line;
  }

  async read(filter: AuditFilter): Promise<ChainedEntry[]> {
    const matching = this.lines.filter(
      (line) =>
        (!filter.subject || line.principal.subject === filter.subject) &&
        (!filter.since || line.at >= filter.since.toISOString()) &&
        (!filter.until || line.at <= filter.until.toISOString()),
    );
    return matching.slice(-(filter.limit ?? DEFAULT_AUDIT_LIMIT));
  }

  async *all(): AsyncGenerator<ChainedEntry> {
    yield* this.lines;
  }
}
