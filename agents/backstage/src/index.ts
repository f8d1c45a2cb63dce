import { runAgent } from "@switchboard/agent-runtime";
import { backstageAgent } from "./agent.js";

await runAgent(backstageAgent);
