#!/usr/bin/env node
// `npm start`: builds what changed since the last build (nothing, on an unchanged checkout), then runs the registry's
// `serve` in this same process, so the process npm started is the server and signals reach it directly.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, projectParts } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  build(root, projectParts(root));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const main = path.join(root, 'dist/cli/main.js');
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
await import(pathToFileURL(main).href);
