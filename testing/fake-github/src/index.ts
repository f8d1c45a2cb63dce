export { defaultGithubSeed, type GithubSeed } from "./seed.js";
export { type FakeGithub, type FakeGithubApp, type FakeGithubOptions, startFakeGithub } from "./server.js";
