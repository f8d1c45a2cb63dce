import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward, type Upstream } from "./forward.js";

/**
 * CAIPE's agent API on the dynamic-agents host, as the Configure agents page uses it
 * (client/configured-agents.tsx), with the methods it may send: the paths are the host's own.
 */
const DYNAMIC_AGENTS_ROUTES: Record<string, string[]> = {
  "/api/v1/agents": ["GET", "POST"],
  "/api/v1/agents/:agentId": ["GET", "PATCH", "DELETE"],
  "/api/v1/mcp-servers": ["GET"],
  "/api/v1/llm-models": ["GET"],
};

/** The page reads this code to say the feature is off (rather than broken). */
export const DYNAMIC_AGENTS_OFF = "dynamic_agents_off";

/**
 * Forwards the page's agent API calls to the dynamic-agents host (DYNAMIC_AGENTS_URL, CAIPE's name)
 * exactly as the supervisor's routes are forwarded: the caller's token goes with them and the host
 * decides who may configure. Unset, every such call answers 503 in CAIPE's envelope, saying how to
 * turn the feature on.
 */
export function dynamicAgentsRoutes(app: Express, url: URL | undefined, logger: Logger): void {
  const host: Upstream | undefined = url && {
    url,
    name: "the dynamic-agents host",
    fix: "Start it (npm start runs it) or set DYNAMIC_AGENTS_URL on the web server.",
  };
  for (const [route, methods] of Object.entries(DYNAMIC_AGENTS_ROUTES)) {
    app.all(route, (req, res) => {
      if (!methods.includes(req.method)) {
        return res.status(405).json({ success: false, error: "Method not allowed." });
      }
      if (!host) {
        return res.status(503).json({
          success: false,
          code: DYNAMIC_AGENTS_OFF,
          error:
            "Agents from configuration are off on this web chat: set DYNAMIC_AGENTS_URL on the web server " +
            "to the dynamic-agents host (e.g. http://localhost:8100) and restart it.",
        });
      }
      forward(host, logger, req, res, req.url);
    });
  }
}
