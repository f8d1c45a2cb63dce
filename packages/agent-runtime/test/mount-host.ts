import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { MountedAgent } from "../src/mount.js";

/** A host as small as can be: one node:http server routing `/agents/<id>/…` to the agent mounted there. */
export interface TestHost {
  base: string;
  agents: Map<string, MountedAgent>;
  /** The URL an agent mounted at `id` is served at. */
  urlOf(id: string): string;
  close(): Promise<void>;
}

export async function startTestHost(): Promise<TestHost> {
  const agents = new Map<string, MountedAgent>();
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/agents\/([^/?]+)(.*)$/.exec(req.url ?? "");
    const agent = match ? agents.get(match[1] ?? "") : undefined;
    if (!match || !agent) {
      res.writeHead(404).end();
      return;
    }
    const rest = match[2] ?? "";
    req.url = rest.startsWith("/") ? rest : `/${rest}`;
    agent.handle(req, res);
  };
  const server: Server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    agents,
    urlOf: (id) => `${base}/agents/${id}`,
    close: async () => {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
