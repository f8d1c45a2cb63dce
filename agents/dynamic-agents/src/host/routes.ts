import type { Principal } from "@switchboard/agent-runtime";
import {
  type AuthSettings,
  bearerGuard,
  callerOf,
  directoryReader,
} from "@switchboard/agent-runtime/auth/bearer";
import type { Logger } from "@switchboard/common";
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import type { Registry } from "prom-client";
import { readersOf } from "../build/visibility.js";
import type { AgentSpec } from "../definitions/spec.js";
import type { HostAccess } from "./access.js";
import type { AgentSet } from "./agent-set.js";

export interface HostAppOptions {
  agents: AgentSet;
  access: HostAccess;
  auth: AuthSettings;
  /** The bearer check as agent `id` runs it (a supervisor's hop token is meant for that agent alone). */
  authFor: (id: string) => AuthSettings;
  /** A verified caller as a principal (its groups from the configured claims). */
  principalOf: (req: Request) => Promise<Principal>;
  /** CAIPE's /api/v1/agents (and its reads), decided per caller. */
  api: Router;
  registry: Registry;
  logger: Logger;
  /** The host's public base URL, for the agents' URLs in GET /agents. */
  publicUrl: () => string;
  /** True once draining: /ready says so, so load balancers stop sending here. */
  draining: () => boolean;
}

/** The paths of an agent's card: a global agent's anyone may read, a team's only those it is for. */
const CARD_PATHS = new Set(["/.well-known/agent-card.json", "/.well-known/agent.json"]);

/**
 * The host's one HTTP surface: its own /health, /ready, /metrics, GET /agents and the definitions
 * API, and every agent at /agents/<id>/ (the prefix stripped: the agent sees the paths it would
 * see alone, and decides every request as it would alone).
 */
export function hostApp(options: HostAppOptions): express.Express {
  const { agents, access, auth } = options;
  const base = () => options.publicUrl();
  const entryOf = (spec: AgentSpec) => ({
    id: spec.id,
    name: spec.name,
    description: spec.description,
    url: `${base()}/agents/${spec.id}`,
  });
  const app = express();
  app.disable("x-powered-by");
  // A token, when sent, must be valid; without one the caller is anonymous (GET /agents lists what
  // anyone may reach). Agents and the API require one themselves under AUTH_MODE=jwt.
  const optionalBearer = bearerGuard(auth, "rest");
  const verifyIfSent: RequestHandler = (req, res, next) =>
    req.header("authorization") ? optionalBearer(req, res, next) : next();

  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/ready", async (_req, res) => {
    const running = agents.list();
    const answers = await Promise.all(running.map((agent) => agent.agent.ready().catch(() => false)));
    const notReady = running.filter((_agent, index) => !answers[index]).map((agent) => agent.spec.id);
    if (options.draining() || notReady.length > 0) {
      res.status(503).json({ status: options.draining() ? "draining" : "not ready", agents: notReady });
      return;
    }
    res.json({ status: "ready", agents: running.length });
  });
  app.get("/metrics", async (_req, res) => {
    res.type(options.registry.contentType).send(await options.registry.metrics());
  });
  app.get("/agents", async (req, res, next) => {
    // The supervisor reading the whole directory, for every user it routes for: each agent with
    // who it is for, which the supervisor applies to each turn's caller (its agents decide again).
    const directory = await directoryReader(auth, req);
    if (typeof directory === "string") return refusedDirectory(res, directory);
    if (directory) {
      res.json({ agents: agents.list().map(({ spec }) => ({ ...entryOf(spec), ...readersOf(spec) })) });
      return;
    }
    verifyIfSent(req, res, async () => {
      try {
        const principal = await options.principalOf(req);
        // Read without a token, the list is a directory of the agents anyone may be shown, the
        // global ones: each decides its callers itself when used.
        const anonymous = auth.mode === "jwt" && !req.header("authorization");
        res.json({
          agents: agents
            .list()
            .filter((running) =>
              anonymous ? running.spec.visibility === "global" : access.mayReach(principal, running.spec.id),
            )
            .map(({ spec }) => entryOf(spec)),
        });
      } catch (error) {
        next(error);
      }
    });
  });
  app.use("/api/v1", bearerGuard(auth, "rest"), options.api);
  const agentGuards = new Map<string, RequestHandler>();
  const unknownGuard = bearerGuard(auth, "jsonrpc");
  const guardOf = (id: string) => {
    const guard = agentGuards.get(id) ?? bearerGuard(options.authFor(id), "jsonrpc");
    agentGuards.set(id, guard);
    return guard;
  };
  app.use("/agents/:id", async (req: Request<{ id: string }>, res: Response, next: NextFunction) => {
    const running = agents.get(req.params.id);
    // One answer for an agent that does not exist and one the caller may not see: nothing is told.
    const missing = () =>
      res.status(404).json({ error: `No agent "${req.params.id}" here: GET /agents lists yours.` });
    // A global agent is shown to everyone and decides every request itself; so is every agent without sign-in.
    if (running && (running.spec.visibility === "global" || auth.mode === "none")) {
      return running.agent.handle(req, res);
    }
    // A team's agent's card tells that it exists and what it does: read as its other routes, and by
    // the supervisor with its directory token (its roster checks every agent by its card).
    if (CARD_PATHS.has(req.path)) {
      const directory = await directoryReader(auth, req);
      if (typeof directory === "string") return refusedDirectory(res, directory);
      if (directory) return running ? running.agent.handle(req, res) : missing();
      // Without a token the caller is anonymous, whom a team's agent is not for: the unknown agent's answer.
      if (!req.header("authorization")) return missing();
    }
    // A token is checked before an agent is called unknown, as a team's agent checks it: a missing
    // or forged one is refused alike whether or not the agent exists (so is it over gRPC, grpc.ts).
    if (!running) return unknownGuard(req, res, (error?: unknown) => (error ? next(error) : missing()));
    // A team's agent: the token verified as the agent itself would, then the team checked.
    guardOf(running.spec.id)(req, res, async (error?: unknown) => {
      if (error) return next(error);
      // This callback's promise is nobody's to await: a failure goes to the error handler here, or it
      // would be an unhandled rejection, which ends the process.
      try {
        if (!running.visibleTo(await options.principalOf(req))) return missing();
        running.agent.handle(req, res);
      } catch (failure) {
        next(failure);
      }
    });
  });
  // A failure of the host's own routes: logged with its cause, answered without it.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    options.logger.error({ err: error, path: req.path }, "a request to the host failed");
    if (!res.headersSent) res.status(500).json({ error: "The host could not answer; its log says why." });
  });
  return app;
}

/** A supervisor's directory token that does not verify: 401, saying why. */
function refusedDirectory(res: Response, reason: string): void {
  res.status(401).setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
  res.json({ error: `The directory token is refused: ${reason}.` });
}

/** The verified caller of a request (anonymous without a token). */
export function callerPrincipal(principalOf: (user: Awaited<ReturnType<typeof callerOf>>) => Principal) {
  return async (req: Request): Promise<Principal> => principalOf(await callerOf(req));
}
