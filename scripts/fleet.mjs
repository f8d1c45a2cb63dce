#!/usr/bin/env node
// Placeholder until the local fleet runner lands with the first agent package.
console.log("No agent packages yet (agents/*). Run `npm test` to exercise the checkpointer.");
