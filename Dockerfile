# Statehouse's server image: the standalone build (npm run build) on Node 20,
# run as a non-root user from a read-only application folder, its SQLite data
# (if any) in the /data volume. docs/deploy.md describes how to run it.
#
#   docker build -t statehouse .
#   docker run --rm -v statehouse-data:/data statehouse migrate
#   docker run --rm -it -v statehouse-data:/data statehouse accounts create admin --role admin
#   docker run -d -p 3000:3000 -v statehouse-data:/data --read-only --tmpfs /tmp statehouse
#
# NODE_IMAGE lets a build use a Node 20 Debian base from elsewhere (a mirror, or one assembled locally).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# A CA bundle for npm behind a TLS-inspecting proxy (mounted into the build; scripts/container-test.sh); empty: Node's own.
ARG NODE_EXTRA_CA_CERTS=
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# node-gyp takes Node's headers from the image instead of downloading them.
ENV NEXT_TELEMETRY_DISABLED=1 \
    npm_config_nodedir=/usr/local
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/statehouse.db
RUN groupadd --system --gid 10001 statehouse \
 && useradd --system --uid 10001 --gid statehouse --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin statehouse \
 && mkdir /data \
 && chown statehouse:statehouse /data
WORKDIR /app
# Owned by root and not writable by the server's user: the server only ever writes to /data.
COPY --from=build /src/.next/standalone ./
COPY docker/entrypoint.sh /usr/local/bin/statehouse
COPY docker/healthcheck.mjs ./healthcheck.mjs
RUN chmod 0755 /usr/local/bin/statehouse && chmod -R a-w /app
USER statehouse
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/healthcheck.mjs"]
ENTRYPOINT ["statehouse"]
CMD ["serve"]
