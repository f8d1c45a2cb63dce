import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward, type Upstream } from "./forward.js";

/** Where the page's knowledge-base calls start; the rest is the RAG server's own path, as CAIPE's UI proxies it. */
export const RAG_PREFIX = "/api/rag";

/**
 * The RAG server's datasource API as the Sources page uses it (client/sources-page.tsx), with the
 * methods it may send: list with sync status, sync now, upload a file.
 */
const RAG_ROUTES: Record<string, string[]> = {
  "/v1/datasources": ["GET"],
  "/v1/datasources/:datasourceId/sync": ["POST"],
  "/v1/datasources/:datasourceId/documents": ["POST"],
};

/** The page reads this code to say the knowledge base is off (rather than broken). */
export const RAG_OFF = "rag_off";

/**
 * Forwards the Sources page's calls to the RAG server (RAG_SERVER_URL when ENABLE_RAG=true) exactly
 * as the supervisor's routes are forwarded: with the caller's own token, so the RAG server lists only
 * the sources that caller may read and decides who may sync or upload; this server decides nothing.
 * Off, every such call answers 503 saying how to turn the knowledge base on.
 */
export function knowledgeRoutes(app: Express, url: URL | undefined, logger: Logger): void {
  const server: Upstream | undefined = url && {
    url,
    name: "the RAG server",
    fix: "Start it (npm start runs it with ENABLE_RAG=true) or set RAG_SERVER_URL on the web server.",
  };
  for (const [route, methods] of Object.entries(RAG_ROUTES)) {
    app.all(`${RAG_PREFIX}${route}`, (req, res) => {
      if (!methods.includes(req.method)) return res.status(405).json({ error: "Method not allowed." });
      if (!server) {
        return res.status(503).json({
          code: RAG_OFF,
          error:
            "The knowledge base is off on this web chat: set ENABLE_RAG=true and RAG_SERVER_URL (e.g. " +
            "http://localhost:9446) on the web server and restart it.",
        });
      }
      forward(server, logger, req, res, req.url.slice(RAG_PREFIX.length));
    });
  }
}
