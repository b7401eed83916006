# One image for every service; SERVICE (at run time) picks which one runs:
#   docker build -t esim-rewards .
#   docker run -e SERVICE=identity esim-rewards
# The provider emulators (sandboxes/, development and demos only) are a target of their own, and
# the production image (the last stage, the default) holds none of their code:
#   docker build --target sandboxes -t esim-rewards-sandboxes .
# BASE_IMAGE: any Debian-like image with Node.js >= 20.19 and npm on the PATH and a `node` user
# (uid 1000). The default is the official Node image; scripts/docker-drill.mjs builds one from
# Debian packages for machines that reach no image registry.
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
# The lock file and every workspace's package.json first: the install layer is reused until the
# dependencies change (scripts/validate-deploy.mjs checks that each workspace is listed here).
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/testing/package.json libs/testing/
COPY services/esim/package.json services/esim/
COPY services/gateway/package.json services/gateway/
COPY services/identity/package.json services/identity/
COPY services/notifications/package.json services/notifications/
COPY services/payments/package.json services/payments/
COPY services/rewards/package.json services/rewards/
COPY services/webhooks/package.json services/webhooks/
COPY sandboxes/package.json sandboxes/
COPY frontend/package.json frontend/
# `npm install` honours package-lock.json (as CI does); --include=dev because the build needs the
# compilers whatever NODE_ENV the base image sets.
RUN npm install --no-audit --no-fund --include=dev
COPY nx.json tsconfig.base.json tsconfig.build.json ./
COPY libs libs
COPY services services
COPY sandboxes sandboxes
COPY frontend frontend
# The roles step (deploy/k8s/db-roles.yaml runs scripts/db-roles.mjs with the built libraries).
COPY scripts scripts
# The emulators' build leaves /app for /sandboxes: what the production stage copies has none of it.
RUN NX_DAEMON=false NX_NO_CLOUD=true npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf .nx frontend/dist/.ssr \
  && mv sandboxes /sandboxes && rm node_modules/@esim/sandboxes

# The provider emulators, for docker-compose.yml's `sandboxes` service; never deployed to production.
FROM ${BASE_IMAGE} AS sandboxes
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
COPY --from=build /sandboxes /app/sandboxes
USER node
CMD ["node", "sandboxes/dist/main.js"]

FROM ${BASE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
# The one place a service writes to its own disk: the mail outbox when no SMTP server is set.
RUN mkdir -p /app/var && chown node /app/var
ARG SERVICE=gateway
ENV SERVICE=${SERVICE}
USER node
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/main.js"]
