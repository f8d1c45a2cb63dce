import { runAgent } from "@switchboard/agent-runtime";
import { netutilsAgent } from "./agent.js";

await runAgent(netutilsAgent);
