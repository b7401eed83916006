// Lets a child process run the repository's TypeScript sources the way Jest does (SWC, and
// @esim/contracts|platform|testing resolved to libs/*/src), e.g. `node -r libs/testing/ts-register.cjs x.ts`.
// Tests use it to run a service in a real separate process, whose exit they can observe.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node -r) */
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../..');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@esim\/(contracts|platform|testing)$/.exec(request);
  return resolveFilename.call(this, lib ? path.join(root, 'libs', lib[1], 'src') : request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
