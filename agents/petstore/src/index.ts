import { runProcess, serveAgent } from "@switchboard/agent-runtime";
import { petstoreAgent } from "./agent.js";

// runAgent, with the definition built first (its tools come from openapi.json): a failure to start is
// one line naming the problem.
await runProcess("petstore", "petstore agent", async (logger) =>
  serveAgent(await petstoreAgent(process.env, logger), { logger }),
);
