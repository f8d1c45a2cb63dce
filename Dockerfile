# syntax=docker/dockerfile:1
# One image per agent package, from the same file:
#   docker build --build-arg AGENT=jira -t switchboard/agent-jira .       (agents/jira)
#   docker build --build-arg AGENT=supervisor -t switchboard/supervisor .  (agents/supervisor)
#   docker build --build-arg AGENT=dynamic-agents --build-arg AGENT_PORT=8100 -t switchboard/dynamic-agents .
#     (agents/dynamic-agents, the host of agents made from configuration: mount its app-config file
#     and set APP_CONFIG_FILE, as docker-compose.dev.yaml and the chart do)
#   docker build --build-arg APP=web --build-arg AGENT_PORT=3000 -t switchboard/web .  (tools/web, the web chat)
# AGENT names a folder under agents/; the image holds only that package, its workspace dependencies
# (built) and their production node_modules. tooling/fleet-config's tests run this file's `build`
# stage RUN lines outside Docker (the literal /out is swapped for a temp folder), so keep them plain sh.

# The Node.js release package.json pins in "engines" (a fleet-config test keeps the two in step).
ARG NODE_IMAGE=node:26.10.0-slim

FROM ${NODE_IMAGE} AS build
ARG AGENT=supervisor
# A tool with an image of its own builds from tools/<APP> instead: APP=web is the web chat.
ARG APP=
# Keep in step with "packageManager" in package.json (a fleet-config test checks it).
ARG PNPM_VERSION=10.34.9
ENV CI=true TURBO_TELEMETRY_DISABLED=1 PNPM_STORE_DIR=/pnpm-store TURBO_CACHE_DIR=/turbo-cache
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}"
WORKDIR /repo
# Dependencies first, from the lockfile only, so this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm-store pnpm fetch --store-dir "$PNPM_STORE_DIR"
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm-store pnpm install --frozen-lockfile --offline --store-dir "$PNPM_STORE_DIR"
# Build the agent and the workspace packages it depends on (turbo's ^build), then copy out just that
# package with its production dependencies. pnpm 10's deploy wants inject-workspace-packages=true;
# --legacy keeps the workspace's symlinked layout for development and deploys as pnpm 9 did.
# A legacy deploy resolves the package's dependencies again, which needs package metadata that
# neither pnpm fetch nor a frozen-lockfile install stores, and this container starts with none:
# --offline would fail (ERR_PNPM_NO_OFFLINE_META). --prefer-offline fetches just the metadata (a few
# seconds); the packages themselves still come from the store that pnpm fetch filled. turbo's cache
# is a cache mount too: a workspace package whose inputs did not change since the last image (of any
# agent) is restored, not compiled again.
RUN --mount=type=cache,id=pnpm-store,target=/pnpm-store \
  --mount=type=cache,id=turbo-cache,target=/turbo-cache \
  dir="agents/${AGENT}"; if [ -n "${APP}" ]; then dir="tools/${APP}"; fi; \
  test -f "${dir}/package.json" || { echo "AGENT=${AGENT} APP=${APP}: no ${dir}/package.json" >&2; exit 1; }; \
  pkg="$(node -p "require('./${dir}/package.json').name")" && \
  pnpm exec turbo run build --filter="${pkg}" --output-logs=errors-only && \
  pnpm --filter="${pkg}" deploy --legacy --prod --prefer-offline --store-dir "$PNPM_STORE_DIR" /out

FROM ${NODE_IMAGE} AS runtime
# The agent's contract port (docs/CONTRACT.md), for EXPOSE only; PORT at run time overrides the listening port.
ARG AGENT_PORT=8000
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /out ./
# The node user (uid 1000) ships with the official Node images.
USER node
EXPOSE ${AGENT_PORT}
# Node's options for every agent: AGENT_NODE_ARGS in packages/contract (a fleet-config test keeps
# this CMD in step with it; the fleet runner starts agents with the same). A NODE_OPTIONS you set
# applies on top.
CMD ["node", "--max-semi-space-size=32", "--max-old-space-size-percentage=75", "dist/index.js"]
