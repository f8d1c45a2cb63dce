import { runAgent } from "@switchboard/agent-runtime";
import { victoropsAgent } from "./agent.js";

await runAgent(victoropsAgent);
