export { type CaipeEnv, type CaipeProject, caipeProjects, ensureCaipeEnv } from "./caipe-env.js";
export { type CaipeProcess, type StartCaipeOptions, startCaipeProcess } from "./caipe-process.js";
export { CAIPE_COMMIT, type CaipeAvailability, type CaipeSource, locateCaipe } from "./locate.js";
export { writeTiktokenCache } from "./tiktoken-cache.js";
