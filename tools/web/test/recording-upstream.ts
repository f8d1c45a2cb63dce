import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stand-in upstream received, as it came. */
export interface Seen {
  method: string;
  url: string;
  authorization?: string;
  cookie?: string;
  contentType?: string;
  body: string;
}

/**
 * An HTTP server standing in for a service the web server forwards to (the dynamic-agents host, the
 * RAG server): it keeps every request in `seen` and answers each with `answer` (JSON). Bodies are read
 * as latin1, so a multipart upload's bytes come through one for one.
 */
export async function startRecordingUpstream(
  answer: string,
): Promise<{ server: Server; port: number; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}),
        ...(req.headers["content-type"] ? { contentType: req.headers["content-type"] } : {}),
        body,
      });
      res.writeHead(200, { "content-type": "application/json" }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    seen,
    close: async () => {
      if (server.listening) await new Promise((done) => server.close(done));
    },
  };
}

/** A request sent exactly as written (fetch would normalise `..` and such before sending). */
export function raw(base: string, method: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, path, method, headers: { authorization: "Bearer victim" } });
    sent.on("response", (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    sent.on("error", reject);
    sent.end();
  });
}
