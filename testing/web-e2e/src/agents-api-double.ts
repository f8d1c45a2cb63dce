import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";

/**
 * A stand-in for the dynamic-agents host's agent API, for the web chat's browser tests: an HTTP
 * server on loopback speaking CAIPE 0.6's shape (`/api/v1/agents` CRUD in the `{ success, data,
 * error }` envelope, a paginated list, `/api/v1/mcp-servers` as FastAPI's bare page,
 * `/api/v1/llm-models`), keeping agents in memory. It is not the host: it checks tokens with the
 * test identity provider's keys (RS256, issuer and audience) and lets one group configure, so the
 * page meets a real signed-in user, a refusal and a validation error; the host's own API has tests
 * of its own (agents/dynamic-agents).
 */
export interface AgentsApiDouble {
  url: string;
  /** The agents as stored, by id: what the page sent, as the API kept it. */
  agents: Map<string, StoredAgent>;
  /** Every request, as `METHOD path` with the caller's subject (or "anonymous"). */
  requests: string[];
  close(): Promise<void>;
}

export interface StoredAgent extends Record<string, unknown> {
  _id: string;
  name: string;
  config_driven: boolean;
}

export interface AgentsApiDoubleOptions {
  /** The identity provider whose access tokens are accepted. */
  idp: { issuer: string; jwksUrl: string; audience: string };
  /** Members of this group may create, change and delete agents; everyone signed in may read. */
  adminGroup: string;
  models: Array<{ model_id: string; name: string; provider: string; description: string }>;
  /** Tool servers; `tools` (names) is listed when given. */
  servers: Array<{ _id: string; name: string; description?: string; tools?: string[] }>;
  /** Agents present at the start (config_driven ones as if seeded from the file). */
  seed: StoredAgent[];
}

const ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export async function startAgentsApiDouble(options: AgentsApiDoubleOptions): Promise<AgentsApiDouble> {
  const keys = createRemoteJWKSet(new URL(options.idp.jwksUrl));
  const agents = new Map(options.seed.map((agent) => [agent._id, structuredClone(agent)]));
  const requests: string[] = [];

  const caller = async (req: IncomingMessage): Promise<{ sub: string; groups: string[] } | undefined> => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return undefined;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.idp.issuer,
        audience: options.idp.audience,
      });
      return { sub: String(payload.sub), groups: (payload.groups as string[] | undefined) ?? [] };
    } catch {
      return undefined;
    }
  };

  /** CAIPE's checks, each naming its field as the page expects (`problems: [{ field, message }]`). */
  const problemsOf = (body: Record<string, unknown>, creating: boolean) => {
    const problems: Array<{ field: string; message: string }> = [];
    const need = (ok: boolean, field: string, message: string) => {
      if (!ok) problems.push({ field, message });
    };
    if (creating) {
      need(
        typeof body.id === "string" && ID.test(body.id),
        "id",
        "Use lower-case letters, digits and dashes.",
      );
    }
    need(typeof body.name === "string" && body.name.trim() !== "", "name", "An agent needs a name.");
    need(
      typeof body.system_prompt === "string" && body.system_prompt.trim() !== "",
      "system_prompt",
      "An agent needs a system prompt.",
    );
    const model = body.model as { id?: string; provider?: string } | undefined;
    need(
      options.models.some((m) => m.model_id === model?.id && m.provider === model?.provider),
      "model.id",
      `No model "${model?.id ?? ""}" from "${model?.provider ?? ""}" is offered: pick one of llm-models.`,
    );
    for (const [server, allowed] of Object.entries((body.allowed_tools as Record<string, unknown>) ?? {})) {
      const known = options.servers.find((s) => s._id === server);
      if (!known) problems.push({ field: `allowed_tools.${server}`, message: `No tool server "${server}".` });
      else if (Array.isArray(allowed) && known.tools) {
        const unknown = allowed.filter((tool) => !known.tools?.includes(String(tool)));
        need(unknown.length === 0, `allowed_tools.${server}`, `${server} has no tool ${unknown.join(", ")}.`);
      }
    }
    ((body.subagents as Array<Record<string, unknown>>) ?? []).forEach((sub, index) => {
      need(
        typeof sub.name === "string" && sub.name !== "",
        `subagents[${index}].name`,
        "A subagent needs a name.",
      );
      if (sub.url !== undefined) {
        need(
          /^https?:\/\//.test(String(sub.url)),
          `subagents[${index}].url`,
          "A subagent's URL must be http(s).",
        );
      } else {
        need(agents.has(String(sub.agent_id)), `subagents[${index}].agent_id`, "No such agent.");
      }
    });
    return problems;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const refuse = (status: number, error: string, extra: Record<string, unknown> = {}) =>
      send(status, { success: false, error, ...extra });
    const url = new URL(req.url ?? "/", "http://double");
    const who = await caller(req);
    requests.push(`${req.method} ${url.pathname} ${who?.sub ?? "anonymous"}`);
    if (!who) return refuse(401, "Sign in: a valid bearer token is required.");
    const admin = who.groups.includes(options.adminGroup);

    if (url.pathname === "/api/v1/llm-models" && req.method === "GET") {
      return send(200, { success: true, data: options.models });
    }
    if (url.pathname === "/api/v1/mcp-servers" && req.method === "GET") {
      const items = options.servers.map((server) => ({
        ...server,
        transport: "http",
        enabled: true,
        config_driven: true,
        created_at: "2026-11-01T00:00:00Z",
        updated_at: "2026-11-01T00:00:00Z",
      }));
      return send(200, { items, total: items.length, page: 1, limit: 50, total_pages: 1 });
    }
    if (url.pathname === "/api/v1/agents" && req.method === "GET") {
      const page = Number(url.searchParams.get("page") ?? 1);
      const limit = Number(url.searchParams.get("limit") ?? 20);
      const all = [...agents.values()];
      const items = all.slice((page - 1) * limit, page * limit);
      return send(200, {
        success: true,
        data: { items, total: all.length, page, page_size: limit, has_more: page * limit < all.length },
      });
    }
    const one = /^\/api\/v1\/agents\/([^/]+)$/.exec(url.pathname);
    const body = req.method === "POST" || req.method === "PATCH" ? await jsonOf(req) : {};
    if (url.pathname === "/api/v1/agents" && req.method === "POST") {
      if (!admin) return refuse(403, `${who.sub} is not in ${options.adminGroup}, who may configure agents.`);
      const problems = problemsOf(body, true);
      if (problems.length > 0) return refuse(422, "The agent is not valid.", { problems });
      if (agents.has(String(body.id))) {
        return refuse(409, `Agent with ID "${body.id}" already exists`, { field: "id" });
      }
      const { id, ...fields } = body;
      const stored: StoredAgent = {
        ...(fields as Record<string, unknown>),
        _id: String(id),
        name: String(body.name),
        owner_id: who.sub,
        is_system: false,
        config_driven: false,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      };
      agents.set(stored._id, stored);
      return send(201, { success: true, data: stored });
    }
    if (one?.[1]) {
      const id = decodeURIComponent(one[1]);
      const agent = agents.get(id);
      if (!agent) return refuse(404, "Agent not found");
      if (req.method === "GET") return send(200, { success: true, data: agent });
      if (!admin) return refuse(403, `${who.sub} is not in ${options.adminGroup}, who may configure agents.`);
      if (agent.config_driven) return refuse(400, "Config-driven agents cannot be modified or deleted.");
      if (req.method === "DELETE") {
        agents.delete(id);
        return send(200, { success: true, data: { deleted: id } });
      }
      if (req.method === "PATCH") {
        if ("id" in body || "_id" in body)
          return refuse(422, "An agent's id does not change.", { field: "id" });
        const next = { ...agent, ...body, updated_at: new Date().toISOString() } as StoredAgent;
        const problems = problemsOf(next, false);
        if (problems.length > 0) return refuse(422, "The agent is not valid.", { problems });
        agents.set(id, next);
        return send(200, { success: true, data: next });
      }
    }
    refuse(404, `Not found: ${req.method} ${url.pathname}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(JSON.stringify({ success: false, error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    agents,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function jsonOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
