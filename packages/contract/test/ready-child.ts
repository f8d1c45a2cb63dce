// A process that says it is ready, as an agent does, and has nothing else to do.
import { announceReady } from "../src/ready.js";

announceReady({ agent: "jira", port: 8006, url: "http://127.0.0.1:8006" });
