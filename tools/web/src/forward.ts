import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Logger } from "@switchboard/common";
import type { Request, Response } from "express";
import { upstreamUrl } from "./upstream-url.js";

/** What the page may send on to the supervisor: A2A and auth, never its cookies. */
const REQUEST_HEADERS = [
  "accept",
  "authorization",
  "content-type",
  "content-length",
  "a2a-version",
  "a2a-extensions",
  "x-a2a-extensions",
  "last-event-id",
];
/** Per-connection headers: they describe the service's connection to us, not ours to the page. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

/** A service this server forwards to, and how to name it (and its setting) when it cannot be reached. */
export interface Upstream {
  url: URL;
  /** e.g. "the supervisor". */
  name: string;
  /** What to do when it is down, e.g. "Start the fleet (npm start) or set SWITCHBOARD_URL on the web server." */
  fix: string;
}

/**
 * Sends a request on to the service at `path` and streams the answer back as it comes, so the
 * A2A event stream (SSE) reaches the page event by event. A page that goes away stops the request.
 * A path that could lead anywhere but the service's URL (see upstreamUrl) is refused with 400, unsent.
 */
export function forward(service: Upstream, logger: Logger, req: Request, res: Response, path: string): void {
  const target = service.url;
  const url = upstreamUrl(target, path);
  if (!url) {
    logger.warn(
      { path: path.slice(0, 200) },
      "refused a forwarded path that could leave the configured origin",
    );
    res.status(400).json({
      error:
        "This path cannot be forwarded: it holds an empty or dot segment, a backslash, an encoded slash or an @.",
    });
    return;
  }
  const headers: OutgoingHttpHeaders = {};
  for (const name of REQUEST_HEADERS) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = send(url, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, responseHeaders(answer.headers));
    // Events are written as they arrive; no proxy in front should hold them back either.
    res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const reason = error.code ?? error.message;
    logger.warn({ upstream: target.origin, reason }, `${service.name} unreachable`);
    res
      .status(502)
      .json({ error: `Cannot reach ${service.name} at ${target.origin} (${reason}). ${service.fix}` });
  });
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  if (String(headers["content-type"] ?? "").startsWith("text/event-stream")) {
    kept["cache-control"] = "no-cache";
    kept["x-accel-buffering"] = "no";
  }
  return kept;
}
