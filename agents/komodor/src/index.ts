import { runAgent } from "@switchboard/agent-runtime";
import { komodorAgent } from "./agent.js";

await runAgent(komodorAgent);
