# syntax=docker/dockerfile:1
# The platform as one image: `docker build -t gzctf-ts .` (compose.yaml and deploy/kubernetes use it).
# The server runs from its TypeScript sources through tsx, as `npm start` does; the web client is
# built here once, so the container never builds at start.

ARG NODE_IMAGE=node:20-bookworm-slim

# Every dependency, then the production web client (hashed, precompressed assets in dist/).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npx webpack --mode production --output-path dist

# Runtime dependencies only (tsx included: it runs the server).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    DIST_DIR=/app/dist
WORKDIR /app
# Owned by root and read-only to the server: only DATA_DIR is written.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.json ./
COPY server ./server
COPY openapi ./openapi
COPY locales ./locales
# The one client module the server shares: the list of languages (server/src/i18n/languages.ts).
COPY src/shared/i18n/languages.ts ./src/shared/i18n/languages.ts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness only (no database round trip); readiness is /readyz, for the proxy or the orchestrator.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (server/src/main.ts); give it SHUTDOWN_TIMEOUT plus a little: `docker stop -t 30`.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/src/main.ts"]
