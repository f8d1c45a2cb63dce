import { runAgent } from "@switchboard/agent-runtime";
import { splunkAgent } from "./agent.js";

await runAgent(splunkAgent);
