// ts-jest, loaded only when a file is not in Jest's transform cache. ts-jest's own cache key needs
// ts-jest, TypeScript and the parsed tsconfig.json, about a second of CPU in every Jest worker even when
// every file is cached. This key is made of what decides ts-jest's output without them: the versions of
// ts-jest and TypeScript, tsconfig.json's text, the options, Jest's project config, and the file. (Each
// file is transpiled alone, `isolatedModules`, so no other file's content is part of its key.)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);
const versionOf = (name) => require(`${name}/package.json`).version;

export default {
  createTransformer(options) {
    const base = [
      `ts-jest@${versionOf('ts-jest')}`,
      `typescript@${versionOf('typescript')}`,
      readFileSync(new URL('tsconfig.json', root), 'utf8'),
      JSON.stringify(options ?? {}),
    ].join('\0');
    let tsJest;
    const compiler = () => (tsJest ??= require('ts-jest').default.createTransformer(options));
    const cacheKey = (source, path, { configString, instrument, supportsStaticESM }) =>
      createHash('sha1')
        .update(base)
        .update(`\0${configString}\0${Boolean(instrument)}\0${Boolean(supportsStaticESM)}\0`)
        .update(path)
        .update('\0')
        .update(source)
        .digest('hex');
    return {
      canInstrument: false,
      getCacheKey: cacheKey,
      getCacheKeyAsync: async (...args) => cacheKey(...args),
      process: (...args) => compiler().process(...args),
      processAsync: (...args) => compiler().processAsync(...args),
    };
  },
};
