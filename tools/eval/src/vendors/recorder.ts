import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { maskSecrets, redactSecrets } from "@switchboard/common";
import type { EvalCase } from "../case.js";
import { evalInputError } from "../errors.js";
import { VENDOR_APIS } from "./vendors.js";

/** One request a vendor answered, as kept: no request header, secrets masked in everything else. */
export interface Exchange {
  vendor: string;
  method: string;
  /** Path and query, secrets in the query masked. */
  path: string;
  /** SHA-256 of the request body as masked, so a replay matches the same call. */
  requestBody: string;
  status: number;
  contentType?: string;
  /** The response body as served to the agent, base64: a replay serves these bytes exactly. */
  body: string;
}

/** A case's recording: `<dir>/<set>/<case id>.json`. */
export interface Recording {
  case: string;
  /** The credential variables the fleet had set when recorded (names only): a replay fills placeholders. */
  credentials: string[];
  exchanges: Exchange[];
}

/**
 * What stands behind each vendor for one case: the evaluation asks before the case and tells after.
 * The fakes (testing/eval-fakes) start one seeded with the case's `vendors` state; without one the
 * vendor the fleet is configured with answers.
 */
export interface CaseVendors {
  begin(c: EvalCase): Promise<Record<string, string>>;
  end(c: EvalCase): Promise<void>;
}

export interface VendorRecorder {
  /** record: keep each case's calls; replay: answer from them; forward: pass each case's calls to its own vendors. */
  mode: "record" | "replay" | "forward";
  /** Settings that point each recorded vendor's agent at its proxy (and, in replay, placeholder credentials). */
  env: Record<string, string>;
  /** The case whose requests follow (one at a time), and where its vendors are (forward, record). */
  begin(caseKey: string, upstreams?: Record<string, string>): void;
  /** Ends the case: a recording is written (once, from the case's first run). */
  end(): void;
  close(): Promise<void>;
}

/** The placeholder a replay gives a credential variable the recording names (no vendor sees it). */
export const REPLAY_CREDENTIAL = "replayed-no-credential";

/**
 * A proxy per vendor between the fleet's agents and the vendors. Recording, it forwards to the
 * vendor the fleet is configured with and keeps each exchange, with every credential value of the
 * environment and every secret pattern (tokens, keys, URL passwords) masked before anything is
 * written; request headers are never kept. Replaying, it answers from the recording alone, the
 * bytes as recorded, and opens no connection: a request it has no recording of gets 501 naming it.
 */
export async function startVendorRecorder(options: {
  mode: "record" | "replay" | "forward";
  dir: string;
  env: NodeJS.ProcessEnv;
  /** The vendors to stand in for; default every vendor whose API variable is set (recording) or recorded (replay). */
  vendors?: string[];
  /** A fixed port per vendor (default: a free one), so a replay can stand where a recording stood. */
  ports?: Record<string, number>;
}): Promise<VendorRecorder> {
  const { mode, dir, env } = options;
  const vendors =
    options.vendors ??
    Object.keys(VENDOR_APIS).filter(
      (name) => mode === "replay" || env[(VENDOR_APIS[name] as { url: string }).url],
    );
  const secrets = Object.values(VENDOR_APIS)
    .flatMap((api) => api.credentials)
    .map((name) => env[name])
    .filter((value): value is string => Boolean(value && value.length >= 4));
  const credentialNames = Object.values(VENDOR_APIS)
    .flatMap((api) => api.credentials)
    .filter((name) => env[name]);
  const scrub = (text: string) => maskSecrets(redactSecrets(text, secrets), secrets);
  let current:
    | {
        key: string;
        exchanges: Exchange[];
        recorded?: Recording;
        used: Set<number>;
        upstreams?: Record<string, string>;
      }
    | undefined;
  const done = new Set<string>();
  const servers: Server[] = [];
  const proxyEnv: Record<string, string> = {};

  for (const vendor of vendors) {
    const api = VENDOR_APIS[vendor];
    if (!api)
      throw evalInputError(
        `No recordable vendor "${vendor}": the vendors are ${Object.keys(VENDOR_APIS).join(", ")}.`,
      );
    const configured = env[api.url] ?? api.default;
    if (mode === "record" && !configured)
      throw evalInputError(`Recording ${vendor} needs ${api.url}: the vendor to record.`);
    const upstream = configured ? new URL(configured) : undefined;
    const server = createServer(async (request, response) => {
      const body = await readBody(request);
      const path = scrub(request.url ?? "/");
      const requestBody = createHash("sha256")
        .update(scrub(body.toString("utf8")))
        .digest("hex");
      const method = request.method ?? "GET";
      if (mode === "replay") {
        if (!current) {
          response
            .writeHead(503, { "content-type": "text/plain" })
            .end(`No evaluation case is running: ${vendor} is not replayed.`);
          return;
        }
        const answer = replayed(current, { vendor, method, path, requestBody });
        if (!answer) {
          response
            .writeHead(501, { "content-type": "text/plain" })
            .end(
              `No recording of ${method} ${path} to ${vendor} for ${current.key}: record the case again (--record).`,
            );
          return;
        }
        response.writeHead(answer.status, answer.contentType ? { "content-type": answer.contentType } : {});
        response.end(Buffer.from(answer.body, "base64"));
        return;
      }
      const caseUpstream = current?.upstreams?.[vendor];
      const base = caseUpstream ? new URL(caseUpstream) : upstream;
      if (!base) {
        response
          .writeHead(502, { "content-type": "text/plain" })
          .end(`No ${vendor} for this case: set ${api.url}.`);
        return;
      }
      // The case's own vendor keeps the path the agent asked (the proxy stands at the configured path).
      const target = new URL(request.url ?? "/", base);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && !HOP_BY_HOP.has(name)) headers.set(name, value);
      }
      try {
        const answer = await fetch(target, {
          method,
          headers,
          redirect: "manual",
          ...(body.length && method !== "GET" && method !== "HEAD" ? { body } : {}),
        });
        const bytes = Buffer.from(await answer.arrayBuffer());
        const contentType = answer.headers.get("content-type") ?? undefined;
        // What the agent gets is what a replay will give: the masked bytes, so a run and its replay agree.
        const masked = isText(contentType) ? Buffer.from(scrub(bytes.toString("utf8")), "utf8") : bytes;
        // Outside a case (the fleet used between runs), or forwarding, the call is passed on and nothing kept.
        if (mode === "record")
          current?.exchanges.push({
            vendor,
            method,
            path,
            requestBody,
            status: answer.status,
            ...(contentType ? { contentType } : {}),
            body: masked.toString("base64"),
          });
        response.writeHead(answer.status, contentType ? { "content-type": contentType } : {});
        response.end(masked);
      } catch (error) {
        response
          .writeHead(502, { "content-type": "text/plain" })
          .end(`${vendor} could not be reached for recording: ${scrub((error as Error).message)}`);
      }
    });
    await new Promise<void>((resolve) => server.listen(options.ports?.[vendor] ?? 0, "127.0.0.1", resolve));
    servers.push(server);
    const local = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    local.pathname = upstream?.pathname ?? "/";
    proxyEnv[api.url] = local.toString().replace(/\/$/, upstream?.pathname.endsWith("/") ? "/" : "");
  }

  const fileOf = (key: string) => recordingFile(dir, key);
  if (mode === "replay") {
    // Every credential a recording names gets a placeholder, so the agents start as configured.
    for (const name of credentialNamesIn(dir)) proxyEnv[name] = env[name] ?? REPLAY_CREDENTIAL;
  }
  return {
    mode,
    env: proxyEnv,
    begin(key, upstreams) {
      if (mode !== "replay") {
        current = { key, exchanges: [], used: new Set(), ...(upstreams ? { upstreams } : {}) };
        return;
      }
      const file = fileOf(key);
      if (!existsSync(file))
        throw evalInputError(`No recording for ${key} (looked for ${file}): record it first (--record).`);
      current = {
        key,
        exchanges: [],
        recorded: JSON.parse(readFileSync(file, "utf8")) as Recording,
        used: new Set(),
      };
    },
    end() {
      if (mode === "record" && current && !done.has(current.key)) {
        const file = fileOf(current.key);
        mkdirSync(dirname(file), { recursive: true });
        const recording: Recording = {
          case: current.key,
          credentials: credentialNames,
          exchanges: current.exchanges,
        };
        writeFileSync(file, `${JSON.stringify(recording, null, 2)}\n`);
        writeFileSync(join(dir, "credentials.json"), `${JSON.stringify(credentialNames)}\n`);
        done.add(current.key);
      }
      current = undefined;
    },
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** Where a case's recording is kept: a set's or case's name never leaves the folder (no separators, no leading dots). */
export function recordingFile(dir: string, key: string): string {
  const parts = key.split("/").map((part) => part.replace(/[^\w.-]/g, "_").replace(/^\.+/, "_") || "_");
  return `${join(dir, ...parts)}.json`;
}

/** The first unused exchange matching the call; once all are used, the last match again (a repeated read). */
function replayed(
  current: { recorded?: Recording; used: Set<number> },
  call: Pick<Exchange, "vendor" | "method" | "path" | "requestBody">,
): Exchange | undefined {
  const exchanges = current.recorded?.exchanges ?? [];
  const matches = exchanges
    .map((exchange, index) => ({ exchange, index }))
    .filter(
      ({ exchange: e }) =>
        e.vendor === call.vendor &&
        e.method === call.method &&
        e.path === call.path &&
        e.requestBody === call.requestBody,
    );
  const fresh = matches.find(({ index }) => !current.used.has(index)) ?? matches.at(-1);
  if (!fresh) return undefined;
  current.used.add(fresh.index);
  return fresh.exchange;
}

function credentialNamesIn(dir: string): string[] {
  const manifest = join(dir, "credentials.json");
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as string[]) : [];
}

const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "accept-encoding",
]);

const isText = (type: string | undefined) =>
  !type || /json|text|xml|javascript|x-www-form-urlencoded/i.test(type);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
