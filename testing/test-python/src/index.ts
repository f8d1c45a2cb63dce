export { type PythonA2aAgent, type PythonA2aSdk, startPythonA2aAgent } from "./a2a-agent.js";
export { type PythonA2aClientResult, runPythonA2aClient } from "./a2a-client.js";
export { STATIC_EMBEDDINGS_MODEL, type StaticEmbeddings, startStaticEmbeddings } from "./embeddings.js";
export { startMoto, type TestMoto } from "./moto.js";
export { ensurePythonEnv, type PythonEnv, type PythonEnvName } from "./python-env.js";
export { ensureUv, UV_VERSION, uvEnv } from "./uv.js";
