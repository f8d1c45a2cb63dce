import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward, type Upstream } from "./forward.js";

/**
 * The trigger receiver's run history and decisions, as the Triggers page uses them
 * (client/triggers-page.tsx): `/api/triggers/<path>` goes to `<TRIGGERS_URL>/api/v1/<path>` with the
 * caller's own token, and the receiver verifies it (an answer to a waiting change is then decided by
 * the agent's policy). Only these routes and methods pass.
 */
const TRIGGERS_ROUTES: Record<string, string[]> = {
  "/tasks": ["GET"],
  "/runs": ["GET"],
  "/tasks/:taskId/runs": ["GET"],
  "/runs/:runId/decision": ["POST"],
};

/** The page reads this code to hide itself (rather than show an error). */
export const TRIGGERS_OFF = "triggers_off";

export function triggersRoutes(app: Express, url: URL | undefined, logger: Logger): void {
  const receiver: Upstream | undefined = url && {
    url,
    name: "the trigger receiver",
    fix: "Start it (npm start runs it when TRIGGERS_CONFIG_FILE is set) or set TRIGGERS_URL on the web server.",
  };
  for (const [route, methods] of Object.entries(TRIGGERS_ROUTES)) {
    app.all(`/api/triggers${route}`, (req, res) => {
      if (!methods.includes(req.method)) return res.status(405).json({ error: "Method not allowed." });
      if (!receiver) {
        return res.status(503).json({
          code: TRIGGERS_OFF,
          error:
            "Triggers are off on this web chat: set TRIGGERS_URL on the web server to the trigger receiver.",
        });
      }
      forward(receiver, logger, req, res, `/api/v1${req.url.slice("/api/triggers".length)}`);
    });
  }
}
