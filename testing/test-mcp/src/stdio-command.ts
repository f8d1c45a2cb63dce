import { fileURLToPath } from "node:url";

/**
 * How an agent's MCP configuration starts the desk over stdio: this Node running the built
 * stdio-main.js, with its state file (and the credential, when given) in the server's env.
 */
export function deskStdioCommand(stateFile: string, token?: string) {
  // From the sources (this package's own tests), the built server beside them in dist/.
  const script = import.meta.url.endsWith(".ts") ? "../dist/stdio-main.js" : "./stdio-main.js";
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL(script, import.meta.url))],
    env: { TEST_MCP_STATE_FILE: stateFile, ...(token ? { TEST_MCP_TOKEN: token } : {}) },
  };
}
