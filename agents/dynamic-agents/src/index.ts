// The dynamic-agents host's entry: reads its settings and serves the configured agents (see README.md).
export {};
