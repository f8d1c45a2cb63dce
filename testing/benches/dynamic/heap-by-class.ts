import { createReadStream } from "node:fs";

/** Bytes and count of one kind of heap object. */
export interface HeapShare {
  bytes: number;
  count: number;
}

const NODES = '"nodes":[';
const STRINGS = '"strings":[';
const [COMMA, CLOSE, QUOTE, BACKSLASH, ZERO] = [",", "]", '"', "\\", "0"].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
];

/**
 * A V8 heap snapshot (`v8.writeHeapSnapshot`) summed by what each node is: objects and native
 * objects by their constructor's name, everything else by its kind ("(closure)", "(string)",
 * "(code)", …). Self sizes: what each object holds itself, not what it keeps alive. Read as a stream
 * (node writes its nodes and its strings each as one line of hundreds of MB), never held whole.
 */
export async function heapByClass(file: string): Promise<Map<string, HeapShare>> {
  let section = "head" as "head" | "nodes" | "between" | "strings" | "done";
  let pending = "";
  let fields: string[] = [];
  let types: string[] = [];
  const byName = new Map<number, HeapShare>();
  const byKind = new Map<string, HeapShare>();
  const names = new Map<number, string>();
  // The node being read: its numbers so far, and the number being read.
  let values: number[] = [];
  let number = 0;
  let digits = false;
  // The string being read: its index, whether it is wanted, its raw text, escape state.
  let stringIndex = 0;
  let inString = false;
  let escaped = false;
  let raw = "";

  const add = <K>(map: Map<K, HeapShare>, key: K, bytes: number) => {
    const share = map.get(key);
    if (share) {
      share.bytes += bytes;
      share.count += 1;
    } else map.set(key, { bytes, count: 1 });
  };
  let at = { type: 0, name: 1, size: 3 };
  const endNode = () => {
    const kind = types[values[at.type] ?? -1] ?? "unknown";
    const bytes = values[at.size] ?? 0;
    if (kind === "object" || kind === "native") add(byName, values[at.name] ?? 0, bytes);
    else add(byKind, `(${kind})`, bytes);
    values = [];
  };

  /** Reads `text` on from where the last chunk left off. */
  const feed = (text: string): void => {
    let i = 0;
    if (section === "head" || section === "between") {
      const joined = pending + text;
      const marker = section === "head" ? NODES : STRINGS;
      const found = joined.indexOf(marker);
      if (found < 0) {
        pending = section === "head" ? joined : joined.slice(-marker.length);
        return;
      }
      if (section === "head") {
        const meta = JSON.parse(`${joined.slice(0, joined.lastIndexOf("}", found) + 1)}}`) as {
          snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
        };
        fields = meta.snapshot.meta.node_fields;
        types = meta.snapshot.meta.node_types[0];
        at = {
          type: fields.indexOf("type"),
          name: fields.indexOf("name"),
          size: fields.indexOf("self_size"),
        };
        section = "nodes";
      } else section = "strings";
      pending = "";
      text = joined;
      i = found + marker.length;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (section === "nodes") {
        if (c === COMMA || c === CLOSE) {
          if (digits) values.push(number);
          number = 0;
          digits = false;
          if (values.length === fields.length) endNode();
          if (c === CLOSE) {
            section = "between";
            feed(text.slice(i + 1));
            return;
          }
        } else if (c >= ZERO && c <= ZERO + 9) {
          number = number * 10 + (c - ZERO);
          digits = true;
        }
      } else if (section === "strings") {
        if (!inString) {
          if (c === QUOTE) {
            inString = true;
            raw = "";
          } else if (c === CLOSE) {
            section = "done";
            return;
          }
          continue;
        }
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          if (byName.has(stringIndex)) names.set(stringIndex, JSON.parse(`"${raw}"`) as string);
          stringIndex++;
          inString = false;
          continue;
        }
        if (byName.has(stringIndex)) raw += text[i];
      } else return;
    }
  };

  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    feed(chunk as string);
    if (section === "done") break;
  }
  const result = new Map<string, HeapShare>(byKind);
  for (const [index, share] of byName) {
    const name = names.get(index) || "(anonymous object)";
    const known = result.get(name);
    result.set(name, { bytes: (known?.bytes ?? 0) + share.bytes, count: (known?.count ?? 0) + share.count });
  }
  return result;
}
