import { Writable } from "node:stream";
import { createLogger, type Logger } from "@switchboard/common";
import type { DefinitionSource, Definitions } from "./spec.js";

/** A logger whose lines the test can read. */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  });
  return { logger, lines };
}

/**
 * The next definitions `source` announces that satisfy `wanted` (the current ones, if they do
 * already): waits on the source's events, failing after `ms` with what it last saw.
 */
export function nextDefinitions(
  source: DefinitionSource,
  wanted: (definitions: Definitions) => boolean,
  ms = 10_000,
): Promise<Definitions> {
  if (wanted(source.current())) return Promise.resolve(source.current());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(
          `the definitions did not change as expected in ${ms} ms; last: ${JSON.stringify(source.current().problems)}`,
        ),
      );
    }, ms);
    const stop = source.onChange((next) => {
      if (!wanted(next)) return;
      clearTimeout(timer);
      stop();
      resolve(next);
    });
  });
}
