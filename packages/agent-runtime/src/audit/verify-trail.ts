import type { Anchor } from "./anchor.js";
import { entryOf, linkOf } from "./chain.js";
import type { ChainedEntry } from "./entry.js";
import type { AuditKey } from "./key.js";

/** A line as the database holds it: where it is stored (`_id`) and what it says. */
export interface StoredLine {
  position: number;
  line: ChainedEntry;
}

/** A TTL index on the collection: what removes lines by age. */
export interface TtlIndex {
  name: string;
  key: Record<string, unknown>;
  expireAfterSeconds: number;
}

/** What a database writer did, by name. */
export type TrailProblemKind =
  | "collection dropped"
  | "all lines deleted"
  | "truncated"
  | "lines deleted"
  | "retention violated"
  | "TTL index added"
  | "line edited"
  | "line forged"
  | "chain forged"
  | "line replaced"
  | "line moved"
  | "unknown key"
  | "trail rewritten";

export interface TrailProblem {
  kind: TrailProblemKind;
  /** The first line it concerns, when it concerns lines. */
  seq?: number;
  detail: string;
}

export interface TrailCheck {
  agent: string;
  /** Whether `audit_<agent>` exists. */
  exists: boolean;
  /** Its lines in `_id` order. */
  lines: StoredLine[];
  ttlIndexes: TtlIndex[];
  /** This agent's anchors, from every file given; none when no anchor was given. */
  anchors: Anchor[];
  /** Whether anchors were given at all (else truncation cannot be seen, and is said so). */
  anchored: boolean;
  /** The keys lines may be linked with, by id. */
  keys: Map<string, AuditKey>;
  /** AUDIT_RETENTION_DAYS as the verifier is told it; undefined: lines are kept forever. */
  retentionDays?: number;
  now: Date;
}

export interface TrailVerdict {
  problems: TrailProblem[];
  /** Things an operator should know that are not tampering (exit 0). */
  notes: string[];
  /** The newest anchored line, when anchors were given. */
  anchoredHead?: number;
  /** The last line of the unkeyed start of the trail (lines written before a key was set). */
  unkeyedUpTo?: number;
}

const DAY_MS = 86_400_000;

/**
 * Verifies one agent's trail against its key(s), its anchors and the retention the configuration
 * gives: every anchored line must be stored unchanged unless retention let it expire; the stored
 * lines must each verify under their key and link up, in place, to the anchored head. Lines
 * without a key are accepted only as the start of the trail (written before AUDIT_HMAC_KEY was
 * set): an unkeyed line after a keyed one is a forgery.
 */
export function verifyTrail(check: TrailCheck): TrailVerdict {
  const problems: TrailProblem[] = [];
  const notes: string[] = [];
  const cutoff = check.retentionDays ? check.now.getTime() - check.retentionDays * DAY_MS : undefined;
  /** Whether a line written at `time` may be gone: retention is on and it is older than that. */
  const mayHaveExpired = (time: string): boolean => cutoff !== undefined && Date.parse(time) <= cutoff;
  const retentionName = `AUDIT_RETENTION_DAYS=${check.retentionDays ?? 0}`;

  problems.push(...ttlProblems(check.ttlIndexes, check.retentionDays));

  // The anchors, one per line; two different links anchored for one line means the trail was
  // written twice over (dropped or truncated, then the agent carried on from the database's head).
  const anchored = new Map<number, Anchor>();
  for (const anchor of [...check.anchors].sort((a, b) => a.seq - b.seq)) {
    const seen = anchored.get(anchor.seq);
    if (seen && seen.link !== anchor.link) {
      problems.push({
        kind: "trail rewritten",
        seq: anchor.seq,
        detail: `the anchor holds two different lines ${anchor.seq} (written ${seen.time} and ${anchor.time}): the trail was deleted back to before it and written again`,
      });
      continue;
    }
    anchored.set(anchor.seq, anchor);
  }
  const head = [...anchored.values()].at(-1);
  const live = [...anchored.values()].filter((anchor) => !mayHaveExpired(anchor.time));

  if (!check.exists || check.lines.length === 0) {
    if (live.length > 0) {
      problems.push({
        kind: check.exists ? "all lines deleted" : "collection dropped",
        seq: live[0]?.seq,
        detail: check.exists
          ? `audit_${check.agent} is empty, but the anchor holds ${live.length} line(s) within retention, up to line ${head?.seq} (${head?.time})`
          : `audit_${check.agent} does not exist, but the anchor holds ${live.length} line(s) within retention, up to line ${head?.seq} (${head?.time})`,
      });
    } else if (head) {
      notes.push(`every anchored line (up to ${head.seq}) is older than ${retentionName}: expired`);
    }
    return { problems, notes, ...(head ? { anchoredHead: head.seq } : {}) };
  }

  const lines = check.lines;
  const first = lines[0] as StoredLine;
  const last = lines.at(-1) as StoredLine;

  // Missing from the start: only retention may remove the oldest lines, and only once expired.
  if (first.position > 1) {
    const missing = linesAre(1, first.position - 1);
    const tooYoung = [...anchored.values()].filter(
      (anchor) => anchor.seq < first.position && !mayHaveExpired(anchor.time),
    );
    if (check.retentionDays === undefined) {
      problems.push({
        kind: "lines deleted",
        seq: 1,
        detail: `${missing} missing: the trail starts at line ${first.position} and ${retentionName} keeps every line`,
      });
    } else if (tooYoung.length > 0) {
      const youngest = tooYoung.at(-1) as Anchor;
      problems.push({
        kind: "retention violated",
        seq: tooYoung[0]?.seq,
        detail: `${listAre(tooYoung.map((anchor) => anchor.seq))} missing but younger than ${retentionName} (line ${youngest.seq} was written ${youngest.time})`,
      });
    } else if (!check.anchored) {
      notes.push(`${missing} gone, taken to have expired (${retentionName}; no anchor to confirm)`);
    } else {
      notes.push(`${missing} gone: expired (${retentionName})`);
    }
  }

  // Missing from the end: the anchor knows a newer line than the database holds.
  if (head && head.seq > last.position) {
    const gone = [...anchored.values()].filter(
      (anchor) => anchor.seq > last.position && !mayHaveExpired(anchor.time),
    );
    if (gone.length > 0) {
      problems.push({
        kind: "truncated",
        seq: last.position + 1,
        detail: `lines after ${last.position} are missing: the anchor's head is line ${head.seq} (written ${head.time})`,
      });
    }
  } else if (check.anchored && head && last.position > head.seq) {
    notes.push(
      `${linesAre(head.seq + 1, last.position)} newer than the anchor's head (${head.seq}): give every replica's anchor file`,
    );
  } else if (check.anchored && !head) {
    notes.push("the anchor holds no line of this agent: give the anchor file its replicas write");
  }

  // Each stored line: in its place, for this agent, linked under a known key, matching its anchor.
  let keyedSeen: number | undefined;
  let unkeyedUpTo: number | undefined;
  let failing: { from: number; to: number; why: string } | undefined;
  const unknownKeys = new Map<string, number[]>();
  const flush = (): void => {
    if (!failing) return;
    // One line that fails: edited in place, or, past everything anchored, added by the writer.
    const added = check.anchored && !anchored.has(failing.from) && failing.from > (head?.seq ?? 0);
    problems.push(
      failing.from === failing.to
        ? {
            kind: added ? "line forged" : "line edited",
            seq: failing.from,
            detail: `line ${failing.from} ${failing.why}`,
          }
        : {
            kind: "chain forged",
            seq: failing.from,
            detail: `lines ${failing.from}–${failing.to} fail their links (from line ${failing.from}: ${failing.why}): edited, and the later links recomputed without the key`,
          },
    );
    failing = undefined;
  };
  let previous: StoredLine | undefined;
  let previousFailed = false;
  for (const stored of lines) {
    const { line, position } = stored;
    if (previous && position !== previous.position + 1) {
      flush();
      problems.push({
        kind: "lines deleted",
        seq: previous.position + 1,
        detail: `${linesAre(previous.position + 1, position - 1)} missing (between ${previous.position} and ${position})`,
      });
    }
    let why: string | undefined;
    if (line.seq !== position) {
      problems.push({
        kind: "line moved",
        seq: position,
        detail: `the line stored as ${position} is line ${line.seq}`,
      });
    } else if (line.agent !== check.agent) {
      why = `is the ${line.agent} agent's line, not ${check.agent}'s`;
    } else if (line.keyId !== undefined) {
      keyedSeen ??= position;
      const key = check.keys.get(line.keyId);
      if (!key) {
        unknownKeys.set(line.keyId, [...(unknownKeys.get(line.keyId) ?? []), position]);
      } else if (linkOf(line.seq, line.prev, entryOf(line), key) !== line.hash) {
        why = `does not match its HMAC under key ${line.keyId}`;
      }
    } else if (keyedSeen !== undefined) {
      why = `has no key after keyed line ${keyedSeen}: a keyed trail never goes back to unkeyed lines`;
    } else if (linkOf(line.seq, line.prev, entryOf(line)) !== line.hash) {
      why = "does not match its (unkeyed) hash";
    } else {
      unkeyedUpTo = position;
    }
    const anchor = anchored.get(position);
    if (!why && anchor && anchor.link !== line.hash) {
      why = `is not the line anchored as ${position} (written ${anchor.time}): replaced`;
    }
    if (why) {
      if (failing && failing.to === position - 1) failing.to = position;
      else {
        flush();
        failing = { from: position, to: position, why };
      }
    } else {
      flush();
      // Both lines verify, yet this one was not written after that one: a genuine line put back
      // in another's place (from another trail, or an earlier one).
      if (
        previous &&
        !previousFailed &&
        previous.position === position - 1 &&
        line.seq === position &&
        line.prev !== previous.line.hash
      ) {
        problems.push({
          kind: "line replaced",
          seq: position - 1,
          detail: `line ${position} was not written after the line now stored as ${position - 1}`,
        });
      }
    }
    previousFailed = why !== undefined || line.seq !== position;
    previous = stored;
  }
  flush();
  for (const [keyId, positions] of unknownKeys) {
    problems.push({
      kind: "unknown key",
      seq: positions[0],
      detail: `${listAre(positions)} linked with key ${keyId}, which the verifier was not given (set AUDIT_HMAC_KEY, and AUDIT_HMAC_PREVIOUS_KEYS for older keys)`,
    });
  }
  // Anchored lines missing in the middle are reported as deleted above; anchored lines before the
  // first stored line are the retention check's.
  if (unkeyedUpTo !== undefined && unkeyedUpTo >= first.position && keyedSeen === undefined) {
    notes.push(
      `unkeyed up to line ${unkeyedUpTo}: written without AUDIT_HMAC_KEY, so a database writer could recompute it`,
    );
  } else if (unkeyedUpTo !== undefined) {
    notes.push(
      `unkeyed up to line ${unkeyedUpTo} (written before AUDIT_HMAC_KEY was set), keyed from line ${keyedSeen}`,
    );
  }
  if (!check.anchored) {
    notes.push(
      "no anchor given (AUDIT_ANCHOR_FILE or --anchor): the newest lines, the whole trail or the collection could be removed unseen",
    );
  }
  return {
    problems: problems.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)),
    notes,
    ...(head ? { anchoredHead: head.seq } : {}),
    ...(unkeyedUpTo !== undefined ? { unkeyedUpTo } : {}),
  };
}

/** Only the TTL index AUDIT_RETENTION_DAYS asks for may remove lines. */
function ttlProblems(indexes: TtlIndex[], retentionDays: number | undefined): TrailProblem[] {
  return indexes
    .filter(
      (index) =>
        !(
          retentionDays !== undefined &&
          index.expireAfterSeconds === 0 &&
          Object.keys(index.key).length === 1 &&
          index.key.expire_at === 1
        ),
    )
    .map((index) => ({
      kind: "TTL index added" as const,
      detail: `index ${index.name} on ${Object.keys(index.key).join(", ")} removes lines (expireAfterSeconds ${index.expireAfterSeconds}), but ${
        retentionDays === undefined
          ? "AUDIT_RETENTION_DAYS=0 keeps every line (if the agents set AUDIT_RETENTION_DAYS, give the verifier the same)"
          : `AUDIT_RETENTION_DAYS=${retentionDays} asks only for the retention index on expire_at`
      }`,
    }));
}

function range(from: number, to: number): string {
  return from === to ? String(from) : `${from}–${to}`;
}

/** "line 3 is" / "lines 3–5 are". */
function linesAre(from: number, to: number): string {
  return from === to ? `line ${from} is` : `lines ${from}–${to} are`;
}

/** [3] → "line 3 is"; [3, 4, 5, 9] → "lines 3–5, 9 are". */
function listAre(seqs: number[]): string {
  return seqs.length === 1 ? `line ${seqs[0]} is` : `lines ${seqList(seqs)} are`;
}

/** 3, 4, 5, 9 → "3–5, 9". */
function seqList(seqs: number[]): string {
  const parts: string[] = [];
  let start = seqs[0];
  let end = start;
  for (const seq of seqs.slice(1)) {
    if (end !== undefined && seq === end + 1) end = seq;
    else {
      if (start !== undefined && end !== undefined) parts.push(range(start, end));
      start = seq;
      end = seq;
    }
  }
  if (start !== undefined && end !== undefined) parts.push(range(start, end));
  return parts.join(", ");
}
