import type { Logger } from "@switchboard/common";

/**
 * The logger for one agent's lines: `logger` itself when its bindings name the agent already (an
 * agent hands in its own), else a child that does. Either way each line names the agent once: pino
 * writes a key as often as it is given, and some log stores refuse a line with a key twice.
 */
export function agentLogger(logger: Logger, agent: string): Logger {
  return logger.bindings().agent === agent ? logger : logger.child({ agent });
}

/** What an info object logs: everything but the agent, which the logger names. */
export function withoutAgent<T extends { agent: string }>({ agent: _agent, ...fields }: T): Omit<T, "agent"> {
  return fields;
}
