import { runAgent } from "@switchboard/agent-runtime";
import { weatherAgent } from "./agent.js";

await runAgent(weatherAgent);
