import { A2AError } from "@a2a-js/sdk/errors";
import { type A2ARequestHandler, ServerCallContext, STATE_HEADERS_KEY } from "@a2a-js/sdk/server";
import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { Logger } from "@switchboard/common";
import type { Request, Response } from "express";
import { callerOf } from "../auth/bearer.js";
import { RunEvents } from "./run-events.js";
import { runRequest } from "./run-input.js";

/** Where every agent serves AG-UI (beside A2A at / and /rest). */
export const AG_UI_PATH = "/ag-ui";

export interface AgUiDeps {
  agent: string;
  /** The same request handler the A2A bindings use: tasks, leases, policies and audit are theirs. */
  requestHandler: A2ARequestHandler;
  logger: Logger;
}

/**
 * POST /ag-ui: a RunAgentInput runs as one A2A message (run-input.ts) through the agent's A2A
 * request handler, as the verified caller (the route sits behind the same bearer check as A2A),
 * and the turn's A2A events stream back as AG-UI events over SSE (run-events.ts). A client that
 * goes away stops reading; the turn, like an A2A stream's, runs to its end and is stored.
 */
export function agUiRun(deps: AgUiDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const run = runRequest(req.body);
    if (typeof run === "string") {
      res.status(400).json({ error: `Invalid AG-UI run: ${run}.` });
      return;
    }
    const context = new ServerCallContext({
      user: await callerOf(req),
      // A2A 1.0's stream (answer tokens as they are written): a context without a version is 0.3's.
      requestedVersion: "1.0",
      // Trace context and a hop's passed-on memories are read from the headers, as on A2A.
      state: new Map([[STATE_HEADERS_KEY, req.headers]]),
    });
    const encoder = new EventEncoder();
    const events = new RunEvents(deps.agent, { threadId: run.input.threadId, runId: run.input.runId });
    res.status(200).set({ "content-type": encoder.getContentType(), "cache-control": "no-cache" });
    res.flushHeaders();
    const send = (list: BaseEvent[]) => {
      for (const event of list) if (!res.destroyed) res.write(encoder.encodeSSE(event));
    };
    send(events.started(run.input));
    try {
      for await (const response of deps.requestHandler.sendMessageStream(run.send, context)) {
        send(events.next(response));
      }
      send(events.closed());
    } catch (error) {
      // The SDK's refusals (a task this caller has none of, one already finished) say what is wrong;
      // anything else stays in the log.
      if (error instanceof A2AError) send(events.failed(error.message, error.reason));
      else {
        deps.logger.error({ err: error }, "AG-UI run failed");
        send(events.failed("The agent could not run this request; its log says why."));
      }
    }
    res.end();
  };
}
