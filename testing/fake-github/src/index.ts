export { defaultGithubSeed, type GithubSeed } from "./seed.js";
export { type FakeGithub, type FakeGithubOptions, startFakeGithub } from "./server.js";
