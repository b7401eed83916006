# One image for every service; SERVICE picks which one runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json nx.json tsconfig.base.json tsconfig.build.json ./
COPY libs libs
COPY services services
COPY frontend frontend
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
ARG SERVICE=gateway
ENV SERVICE=${SERVICE}
USER node
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/main.js"]
