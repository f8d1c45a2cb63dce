import { SwitchboardError } from "@switchboard/common";

/** A problem the person running the evaluation fixes (a set, a setting, a flag): named, with the fix. */
export function evalInputError(message: string, cause?: unknown): SwitchboardError {
  return new SwitchboardError("EVAL_INPUT", "user", message, cause === undefined ? undefined : { cause });
}
