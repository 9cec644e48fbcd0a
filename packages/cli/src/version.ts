import { readFileSync } from 'node:fs';

// Both src/ (under tsx) and dist/ sit one level below the package root.
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** This package's version, sent in the User-Agent. */
export const VERSION = pkg.version;
