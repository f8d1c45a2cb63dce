import { runAgent } from "@switchboard/agent-runtime";
import { webexAgent } from "./agent.js";

await runAgent(webexAgent);
