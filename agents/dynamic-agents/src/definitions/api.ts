import type { Principal } from "@switchboard/agent-runtime";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { specOf } from "./agent-spec.js";
import { AGENT_FIELDS, type AgentFields, checkAgent, SERVER_FIELDS } from "./caipe-agent.js";
import { agentDocument } from "./documents.js";
import { type Candidate, candidateProblems } from "./resolve.js";
import { agentIdProblem, LIMITS } from "./rules.js";
import type { DefinitionProblem, DefinitionsApiOptions, StoredAgent, StoredMcpServer } from "./spec.js";

// CAIPE's dynamic-agents API (docs/docs/api/openapi/dynamic-agents.yaml) in its envelope
// ({ success, data, error }), mounted by the host at /api/v1 behind its bearer-token check. Who may
// do what is the policy's (`configure` to write, `reach` or `configure` to read); agents from the
// file are the file's (400 here, as CAIPE); a body is checked field by field (422 naming each).

/** The resource a policy decides listing tool sources on: configuring agents in general. */
export const ANY_AGENT = "*";

type Envelope = { success: boolean; data?: unknown; error?: string; problems?: DefinitionProblem[] };

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems?: DefinitionProblem[],
  ) {
    super(message);
  }
}

export function definitionsApi(options: DefinitionsApiOptions): Router {
  const { source, decide, caller, logger } = options;
  const store = options.store ?? source.store;
  const router = express.Router();
  const json = express.json({ limit: LIMITS.bodyBytes, strict: true });

  const mayConfigure = async (req: Request, id: string) => {
    const principal = await caller(req);
    if (!(await decide(principal, "configure", id))) {
      throw new ApiError(
        403,
        `You may not configure the agent "${id}": that needs the configure permission (a group in RBAC_ADMIN_GROUPS, or a policy permitting Switchboard::Action::"configure" on it).`,
      );
    }
    return principal;
  };
  const mayRead = async (principal: Principal | undefined, doc: StoredAgent) =>
    (await decide(principal, "configure", String(doc._id))) ||
    (doc.enabled !== false && (await decide(principal, "reach", String(doc._id))));
  const problemsOf = (id: string) => source.current().problems.filter((problem) => problem.agent === id);
  const withProblems = (doc: StoredAgent) => {
    const problems = problemsOf(doc._id);
    return problems.length > 0 ? { ...doc, problems } : doc;
  };

  router.get("/agents", async (req, res) => {
    const { page, limit } = paging(req, 20);
    const principal = await caller(req);
    // By name, then id; a document CAIPE's UI wrote may lack either as text.
    const key = (doc: StoredAgent) => [String(doc.name ?? ""), String(doc._id)] as const;
    const docs = (await store.listAgents()).sort((a, b) => {
      const [nameA, idA] = key(a);
      const [nameB, idB] = key(b);
      return nameA.localeCompare(nameB) || idA.localeCompare(idB);
    });
    const visible: StoredAgent[] = [];
    for (const doc of docs) if (await mayRead(principal, doc)) visible.push(doc);
    const items = visible.slice((page - 1) * limit, page * limit).map(withProblems);
    send(res, 200, {
      success: true,
      data: { items, total: visible.length, page, limit, total_pages: Math.ceil(visible.length / limit) },
    });
  });

  router.post("/agents", json, async (req, res) => {
    const body = bodyOf(req);
    // An id that is there must be the id (never an object such as {"$gt": ""}); else one from the name.
    const id = body.id !== undefined ? body.id : typeof body.name === "string" ? slug(body.name) : undefined;
    if (typeof id !== "string") {
      throw invalid([{ field: "id", message: "give the agent an id (text), or a name to make one from" }]);
    }
    checkId(id, "id");
    const principal = await mayConfigure(req, id);
    const fields = checked({ ...body, id }, id, body);
    if (await store.getAgent(id)) {
      throw new ApiError(
        409,
        `An agent with the id "${id}" exists already: choose another id, or PATCH that one.`,
      );
    }
    crossCheck(id, fields);
    const owner = principal?.email ?? principal?.subject ?? "anonymous";
    const doc = agentDocument(id, fields, { ownerId: owner, configDriven: false });
    const created = await store.createAgent({
      ...doc,
      ...(principal ? { owner_subject: principal.subject } : {}),
    });
    if (!created)
      throw new ApiError(
        409,
        `An agent with the id "${id}" exists already: choose another id, or PATCH that one.`,
      );
    await source.refresh();
    logger.info({ agent: id, by: principal?.subject }, "configured agent created through the API");
    send(res, 200, { success: true, data: withProblems((await store.getAgent(id)) as StoredAgent) });
  });

  router.get("/agents/:agent_id", async (req: Request<{ agent_id: string }>, res) => {
    const id = checkId(req.params.agent_id, "agent_id");
    const principal = await caller(req);
    const doc = await store.getAgent(id);
    if (!doc || !(await mayRead(principal, doc))) {
      // The same answer for an agent that is not there and one the caller may not see.
      throw new ApiError(404, `No agent "${id}" you may see: GET /api/v1/agents lists yours.`);
    }
    send(res, 200, { success: true, data: withProblems(doc) });
  });

  router.patch("/agents/:agent_id", json, async (req: Request<{ agent_id: string }>, res) => {
    const id = checkId(req.params.agent_id, "agent_id");
    const principal = await mayConfigure(req, id);
    const existing = await writable(id);
    const body = bodyOf(req);
    if (body.id !== undefined && body.id !== id) {
      throw invalid([
        {
          field: "id",
          message: "an agent's id cannot change: create one with the new id, then delete this one",
        },
      ]);
    }
    const merged: Record<string, unknown> = { ...existing, ...body };
    // CAIPE's legacy model fields in an update replace the model, as its API migrates them.
    if (("model_id" in body || "model_provider" in body) && !("model" in body)) delete merged.model;
    const fields = checked(merged, id, body);
    crossCheck(id, fields);
    const { created_at: _c, updated_at: _u, ...kept } = existing;
    const doc = {
      ...kept,
      ...agentDocument(id, fields, { ownerId: existing.owner_id, configDriven: false }),
    };
    if (!(await store.replaceAgent(doc))) throw new ApiError(404, `No agent "${id}" made through the API.`);
    await source.refresh();
    logger.info({ agent: id, by: principal?.subject }, "configured agent changed through the API");
    send(res, 200, { success: true, data: withProblems((await store.getAgent(id)) as StoredAgent) });
  });

  router.delete("/agents/:agent_id", async (req: Request<{ agent_id: string }>, res) => {
    const id = checkId(req.params.agent_id, "agent_id");
    const principal = await mayConfigure(req, id);
    await writable(id);
    const parents = source
      .current()
      .agents.filter((agent) => agent.id !== id && agent.subagents.some((ref) => ref.agentId === id))
      .map((agent) => agent.id);
    if (parents.length > 0) {
      throw new ApiError(
        409,
        `The agents ${parents.map((one) => `"${one}"`).join(", ")} delegate to "${id}": remove it from their subagents first.`,
      );
    }
    if (!(await store.deleteAgent(id))) throw new ApiError(404, `No agent "${id}" made through the API.`);
    await source.refresh();
    logger.info({ agent: id, by: principal?.subject }, "configured agent deleted through the API");
    send(res, 200, { success: true, data: { deleted: id } });
  });

  router.get("/mcp-servers", async (req, res) => {
    const { page, limit } = paging(req, 50);
    const principal = await caller(req);
    if (!(await decide(principal, "configure", ANY_AGENT))) {
      throw new ApiError(
        403,
        'You may not list MCP servers: that needs the configure permission on any agent (a group in RBAC_ADMIN_GROUPS, or a policy permitting Switchboard::Action::"configure" on Switchboard::Agent::"*").',
      );
    }
    const servers = (await store.listMcpServers())
      .sort((a, b) => String(a._id).localeCompare(String(b._id)))
      .map(redacted);
    send(res, 200, {
      success: true,
      data: {
        items: servers.slice((page - 1) * limit, page * limit),
        total: servers.length,
        page,
        limit,
        total_pages: Math.ceil(servers.length / limit),
      },
    });
  });

  router.get("/llm-models", (_req, res) => {
    const models = source.current().models.map((model) => ({
      model_id: model.modelId,
      name: model.name,
      provider: model.provider,
      description: model.description ?? "",
    }));
    send(res, 200, { success: true, data: models });
  });

  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof ApiError) {
      return send(res, error.status, {
        success: false,
        error: error.message,
        ...(error.problems ? { problems: error.problems } : {}),
      });
    }
    const type = (error as { type?: string }).type;
    if (type === "entity.too.large") {
      return send(res, 413, {
        success: false,
        error: `The body is over ${LIMITS.bodyBytes / 1024} KB: no agent definition is that large.`,
      });
    }
    if (type === "entity.parse.failed" || type === "encoding.unsupported" || type === "charset.unsupported") {
      return send(res, 400, {
        success: false,
        error: "The body is not JSON: send the agent as a JSON object (Content-Type: application/json).",
      });
    }
    logger.error({ err: error }, "the definitions API failed");
    return send(res, 500, { success: false, error: "The definitions API failed; the host's log says why." });
  });

  return router;

  /** The agent, if the API may change it: made through the API, not the file's nor a system one. */
  async function writable(id: string): Promise<StoredAgent> {
    const existing = await store.getAgent(id);
    if (!existing) throw new ApiError(404, `No agent "${id}": GET /api/v1/agents lists them.`);
    if (existing.config_driven) {
      throw new ApiError(
        400,
        `The agent "${id}" comes from the configuration file (APP_CONFIG_FILE): change it there; the API changes only agents made through it.`,
      );
    }
    if (existing.is_system)
      throw new ApiError(400, `The agent "${id}" is a system agent: it cannot be changed or deleted.`);
    return existing;
  }

  /** The agent checked field by field; server-set fields ignored, ones the body adds unknown refused. */
  function checked(agent: Record<string, unknown>, id: string, body: Record<string, unknown>): AgentFields {
    const unknown = Object.keys(body).filter((key) => !AGENT_FIELDS.has(key) && key !== "problems");
    const own = Object.fromEntries(
      Object.entries(agent).filter(([key]) => !SERVER_FIELDS.has(key) && key !== "problems"),
    );
    const result = checkAgent(own, { at: "", defaultVisibility: "team", id });
    const problems: DefinitionProblem[] = unknown.map((key) => ({
      field: key.slice(0, 80),
      message:
        "not a field of a dynamic agent (CAIPE's DynamicAgentConfigCreate): remove it, or check its spelling",
    }));
    if (!result.ok) problems.push(...result.problems);
    if (problems.length > 0 || !result.ok) throw invalid(problems);
    return result.fields;
  }

  /** What the agent refers to must exist, and no delegation cycle may go through it. */
  function crossCheck(id: string, fields: AgentFields): void {
    const current = source.current();
    const others: Candidate[] = current.agents
      .filter((agent) => agent.id !== id)
      .map((spec) => ({ spec, at: `agents.${spec.id}` }));
    const disabled = new Set<string>();
    const problems = candidateProblems(
      { spec: specOf(id, fields, "api"), at: "" },
      others,
      current.toolSources,
      disabled,
    );
    if (problems.length > 0) throw invalid(problems);
  }
}

function invalid(problems: DefinitionProblem[]): ApiError {
  const said = problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ");
  return new ApiError(
    422,
    `The agent is not valid: ${said}`,
    problems.map(({ field, message }) => ({ field, message })),
  );
}

function checkId(id: string, field: string): string {
  const problem = agentIdProblem(id);
  if (problem) throw invalid([{ field, message: problem }]);
  return id;
}

function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw invalid([
      { field: "body", message: "send the agent as a JSON object (Content-Type: application/json)" },
    ]);
  }
  return body as Record<string, unknown>;
}

/** CAIPE's id from a name: `Code Reviewer` → `code-reviewer`. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/, "");
}

function paging(req: Request, defaultLimit: number): { page: number; limit: number } {
  const number = (name: string, fallback: number, max: number) => {
    const text = req.query[name];
    if (text === undefined) return fallback;
    const value = typeof text === "string" && /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= 1 && value <= max)) {
      throw invalid([{ field: name, message: `use a whole number from 1 to ${max}` }]);
    }
    return value;
  };
  const limitName =
    req.query.limit === undefined && req.query.page_size !== undefined ? "page_size" : "limit";
  return { page: number("page", 1, 100_000), limit: number(limitName, defaultLimit, 100) };
}

/** A server without its secrets: header and env values, unless one only names a variable. */
function redacted(server: StoredMcpServer): StoredMcpServer {
  const hide = (map: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(map).map(([key, value]) => [
        key,
        /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value) ? value : "<redacted>",
      ]),
    );
  return {
    ...server,
    ...(server.env ? { env: hide(server.env) } : {}),
    ...(server.headers ? { headers: hide(server.headers) } : {}),
  };
}

function send(res: Response, status: number, body: Envelope): void {
  res.status(status).json(body);
}
