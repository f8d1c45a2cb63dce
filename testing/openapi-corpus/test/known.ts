/**
 * What a description of the corpus still cannot do, each with the step it first fails at and why: the
 * corpus test expects exactly that failure, and fails when the step starts to pass (then take the
 * entry out) or fails earlier.
 */
export const KNOWN: Record<
  string,
  { step: "generate" | "build" | "own tests" | "read" | "change"; because: string }
> = {};
