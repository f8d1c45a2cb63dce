import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface ConfiguredHost {
  url: string;
  /** How many times the listing was read so far. */
  reads(): number;
  /** The Authorization header of every request passed to an agent, by agent id; the listing's under "". */
  bearers: Map<string, Array<string | undefined>>;
  /** Answers GET /agents with `agents` from now on. */
  list(agents: unknown[]): void;
  /** Answers GET /agents this way from now on (a broken or hostile listing). */
  answerWith(answer: Answer): void;
  close(): Promise<void>;
}

/**
 * A dynamic-agents host as the supervisor sees it: GET /agents (the listing the test sets), and each
 * agent of `targets` (id → the URL it is served at) under /agents/<id>/, the prefix stripped as the
 * host's own routing does.
 */
export async function startConfiguredHost(targets: Record<string, string>): Promise<ConfiguredHost> {
  let answer: Answer = (_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end('{"agents":[]}');
  let reads = 0;
  const bearers = new Map<string, Array<string | undefined>>();
  const seen = (id: string, req: IncomingMessage) =>
    bearers.set(id, [...(bearers.get(id) ?? []), req.headers.authorization]);
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://host").pathname;
    if (req.method === "GET" && path === "/agents") {
      reads += 1;
      seen("", req);
      answer(req, res);
      return;
    }
    const match = /^\/agents\/([^/]+)(\/.*)?$/.exec(path);
    const id = match?.[1] ?? "";
    const target = targets[id];
    if (!target) {
      res.writeHead(404).end();
      return;
    }
    seen(id, req);
    const upstream = httpRequest(
      `${target}${match?.[2] ?? "/"}`,
      { method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads: () => reads,
    bearers,
    list(agents) {
      answer = (_req, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ agents }));
    },
    answerWith(next) {
      answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
