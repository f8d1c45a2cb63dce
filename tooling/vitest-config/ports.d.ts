/**
 * A loopback port nothing listens on, for a server that starts later, restarts on the same URL, or
 * stays down so that connections to it are refused. It is drawn below the ephemeral range: the
 * many servers that tests running beside each other start on port 0 never land there, so the port
 * stays the test's between its servers' runs.
 */
export function freePort(): Promise<number>;
