import type { RequestHandler } from "express";

/** How long an event stream may stay quiet before it gets a comment line. */
export const SSE_HEARTBEAT_MS = 15_000;

/**
 * Keeps a quiet A2A event stream open through proxies. While an answer waits (a slow model, a long
 * tool call, a subagent's turn) nothing is written, and load balancers and ingresses cut a
 * connection idle for 60 s (nginx's proxy_read_timeout, AWS ALB's idle timeout): the client would
 * lose the turn's answer. After `quietMs` without a write, an SSE comment line (`: keep-alive`) is
 * sent; every SSE client skips comments (the A2A SDKs, httpx-sse, EventSource).
 */
export function sseHeartbeat(quietMs = SSE_HEARTBEAT_MS): RequestHandler {
  return (_req, res, next) => {
    let timer: NodeJS.Timeout | undefined;
    const write = res.write.bind(res) as (chunk: string) => boolean;
    const beat = () => {
      if (res.writableEnded || res.destroyed) return;
      write(": keep-alive\n\n");
      timer?.refresh();
    };
    res.write = ((...args: Parameters<typeof res.write>) => {
      if (timer) timer.refresh();
      else if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) {
        timer = setTimeout(beat, quietMs);
        timer.unref();
      }
      return (write as (...all: Parameters<typeof res.write>) => boolean)(...args);
    }) as typeof res.write;
    res.once("close", () => clearTimeout(timer));
    next();
  };
}
