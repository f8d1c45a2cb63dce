import { runAgent } from "@switchboard/agent-runtime";
import { supervisorAgent } from "./agent.js";

await runAgent(supervisorAgent);
