export { adfToText, textToAdf } from "./adf.js";
export { defaultJiraSeed, type JiraSeed } from "./seed.js";
export { type FakeJira, type FakeJiraOptions, startFakeJira } from "./server.js";
