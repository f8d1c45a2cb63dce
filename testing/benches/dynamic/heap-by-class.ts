import { createReadStream } from "node:fs";

/** Bytes and count of one kind of heap object. */
export interface HeapShare {
  bytes: number;
  count: number;
}

const [COMMA, CLOSE, QUOTE, BACKSLASH, ZERO] = [",", "]", '"', "\\", "0"].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
];
/** Kinds that are only storage for something else: summed under what holds them. */
const STORAGE = new Set(["array", "hidden", "object shape"]);
/** How far up the first referrers to look for what holds a storage node. */
const OWNER_HOPS = 6;

/** The three lists of a snapshot the sums need, read as numbers or strings as they stream by. */
interface Lists {
  nodeFields: string[];
  nodeTypes: string[];
  edgeFields: string[];
  edgeTypes: string[];
  onNode(values: number[]): void;
  onEdge(values: number[]): void;
  /** Whether the string at this index is wanted (not wanted: skipped without being built). */
  wantString(index: number): boolean;
  onString(index: number, text: string): void;
}

/**
 * Streams a V8 heap snapshot (`v8.writeHeapSnapshot`: node writes its nodes, edges and strings each as
 * one line of up to hundreds of MB), calling back for each node, edge and wanted string.
 */
async function readSnapshot(file: string, lists: (meta: Omit<Lists, `on${string}` | "wantString">) => Lists) {
  type Section = "head" | "nodes" | "to-edges" | "edges" | "to-strings" | "strings" | "done";
  let section = "head" as Section;
  let pending = "";
  let handlers: Lists | undefined;
  let values: number[] = [];
  let number = 0;
  let digits = false;
  let stringIndex = 0;
  let inString = false;
  let escaped = false;
  let wanted = false;
  let raw = "";
  const markers: Partial<Record<Section, [string, Section]>> = {
    head: ['"nodes":[', "nodes"],
    "to-edges": ['"edges":[', "edges"],
    "to-strings": ['"strings":[', "strings"],
  };

  const feed = (chunk: string): void => {
    let text = chunk;
    let i = 0;
    const marker = markers[section];
    if (marker) {
      const joined = pending + text;
      const found = joined.indexOf(marker[0]);
      if (found < 0) {
        pending = section === "head" ? joined : joined.slice(-marker[0].length);
        return;
      }
      if (section === "head") {
        const meta = (
          JSON.parse(`${joined.slice(0, joined.lastIndexOf("}", found) + 1)}}`) as {
            snapshot: {
              meta: {
                node_fields: string[];
                node_types: [string[]];
                edge_fields: string[];
                edge_types: [string[]];
              };
            };
          }
        ).snapshot.meta;
        handlers = lists({
          nodeFields: meta.node_fields,
          nodeTypes: meta.node_types[0],
          edgeFields: meta.edge_fields,
          edgeTypes: meta.edge_types[0],
        });
      }
      section = marker[1];
      pending = "";
      text = joined;
      i = found + marker[0].length;
    }
    const h = handlers as Lists;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (section === "nodes" || section === "edges") {
        if (c === COMMA || c === CLOSE) {
          if (digits) values.push(number);
          number = 0;
          digits = false;
          const width = section === "nodes" ? h.nodeFields.length : h.edgeFields.length;
          if (values.length === width) {
            if (section === "nodes") h.onNode(values);
            else h.onEdge(values);
            values = [];
          }
          if (c === CLOSE) {
            section = section === "nodes" ? "to-edges" : "to-strings";
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
            wanted = h.wantString(stringIndex);
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
          if (wanted) h.onString(stringIndex, JSON.parse(`"${raw}"`) as string);
          stringIndex++;
          inString = false;
          continue;
        }
        if (wanted) raw += text[i];
      } else return;
    }
  };

  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    feed(chunk as string);
    if (section === "done") break;
  }
}

/** How far up its first referrers a node is looked for under one of the holders asked about. */
const HOLDER_HOPS = 8;

/** A heap snapshot's sums: by class, and under each holder asked about. */
export interface HeapSums {
  byClass: Map<string, HeapShare>;
  /** Every node whose chain of first referrers reaches one of the holders within 8 hops, under the nearest. */
  byHolder: Map<string, HeapShare>;
}

/**
 * A V8 heap snapshot summed by what each node is: objects and native objects by their constructor's
 * name, code, closures and strings by their kind ("(closure)", "(string)", …). Storage that only
 * holds something else (arrays, hidden and shape nodes) is summed under what holds it: the first
 * object found up its first referrers, as "(array) of Array". Self sizes: what each node holds
 * itself, not all it keeps alive. `holders` (constructor names; a bundler's leading "_" ignored):
 * each node is also summed under the nearest of them up its chain of first referrers, a heuristic
 * for "what this object keeps" that needs no dominator tree.
 */
export async function heapByClass(file: string, holders: readonly string[] = []): Promise<HeapSums> {
  // Per node, in snapshot order (grown as they come: the count is in the header, but not needed).
  let kinds = new Uint8Array(1 << 20);
  let names = new Uint32Array(1 << 20);
  let sizes = new Float64Array(1 << 20);
  let edgeCounts = new Uint32Array(1 << 20);
  let nodes = 0;
  let owners = new Int32Array(0);
  let fieldCount = 0;
  let storageKinds = new Set<number>();
  let objectKinds = new Set<number>();
  let weakEdge = -1;
  // The node whose edges are being read, and how many of them are left.
  let from = -1;
  let edgesLeft = 0;
  const strings = new Map<number, string>();
  const wanted = new Set<number>();
  let kindNames: string[] = [];

  await readSnapshot(file, (meta) => {
    fieldCount = meta.nodeFields.length;
    kindNames = meta.nodeTypes;
    storageKinds = new Set(meta.nodeTypes.flatMap((kind, at) => (STORAGE.has(kind) ? [at] : [])));
    objectKinds = new Set(
      meta.nodeTypes.flatMap((kind, at) => (kind === "object" || kind === "native" ? [at] : [])),
    );
    weakEdge = meta.edgeTypes.indexOf("weak");
    const at = (field: string) => meta.nodeFields.indexOf(field);
    const [type, name, size, edges] = [at("type"), at("name"), at("self_size"), at("edge_count")];
    const [edgeType, toNode] = [meta.edgeFields.indexOf("type"), meta.edgeFields.indexOf("to_node")];
    return {
      ...meta,
      onNode(values) {
        if (nodes === kinds.length) {
          const grow = <T extends Uint8Array | Uint32Array | Float64Array>(
            old: T,
            make: (n: number) => T,
          ) => {
            const next = make(old.length * 2);
            next.set(old);
            return next;
          };
          kinds = grow(kinds, (n) => new Uint8Array(n));
          names = grow(names, (n) => new Uint32Array(n));
          sizes = grow(sizes, (n) => new Float64Array(n));
          edgeCounts = grow(edgeCounts, (n) => new Uint32Array(n));
        }
        kinds[nodes] = values[type] ?? 0;
        names[nodes] = values[name] ?? 0;
        sizes[nodes] = values[size] ?? 0;
        edgeCounts[nodes] = values[edges] ?? 0;
        if (objectKinds.has(values[type] ?? -1)) wanted.add(values[name] ?? 0);
        nodes++;
      },
      onEdge(values) {
        if (owners.length === 0) owners = new Int32Array(nodes).fill(-1);
        while (edgesLeft === 0) edgesLeft = edgeCounts[++from] ?? 0;
        edgesLeft--;
        if (values[edgeType] === weakEdge) return;
        const to = (values[toNode] ?? 0) / fieldCount;
        if (owners[to] === -1 && to !== from) owners[to] = from;
      },
      wantString: (index) => wanted.has(index),
      onString: (index, text) => strings.set(index, text),
    };
  });

  const keyOf = (node: number): string =>
    objectKinds.has(kinds[node] ?? -1)
      ? strings.get(names[node] ?? 0) || "(anonymous object)"
      : `(${kindNames[kinds[node] ?? 0]})`;
  const add = (map: Map<string, HeapShare>, key: string, bytes: number) => {
    const share = map.get(key);
    if (share) {
      share.bytes += bytes;
      share.count += 1;
    } else map.set(key, { bytes, count: 1 });
  };
  const holderOf = (node: number): string | undefined => {
    let at = owners[node] ?? -1;
    for (let hop = 0; hop < HOLDER_HOPS && at >= 0; hop++) {
      const name = keyOf(at).replace(/^_+/, "");
      if (holders.includes(name)) return name;
      at = owners[at] ?? -1;
    }
    return undefined;
  };
  const byClass = new Map<string, HeapShare>();
  const byHolder = new Map<string, HeapShare>();
  for (let node = 0; node < nodes; node++) {
    let key = keyOf(node);
    if (storageKinds.has(kinds[node] ?? -1)) {
      let holder = owners[node] ?? -1;
      for (let hop = 0; hop < OWNER_HOPS && holder >= 0 && storageKinds.has(kinds[holder] ?? -1); hop++)
        holder = owners[holder] ?? -1;
      if (holder >= 0) key = `${key} of ${keyOf(holder)}`;
    }
    add(byClass, key, sizes[node] ?? 0);
    const holder = holders.length > 0 ? holderOf(node) : undefined;
    if (holder) add(byHolder, holder, sizes[node] ?? 0);
  }
  return { byClass, byHolder };
}
