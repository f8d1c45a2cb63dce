import { runAgent } from "@switchboard/agent-runtime/serve";
import { supervisorAgent } from "./agent.js";

await runAgent(supervisorAgent);
