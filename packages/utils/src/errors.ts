// SwitchboardError lives in @switchboard/common; this module only keeps `./errors.js` working for
// files here that still import it relatively.
export { type ErrorCategory, isSwitchboardError, SwitchboardError } from "@switchboard/common";
