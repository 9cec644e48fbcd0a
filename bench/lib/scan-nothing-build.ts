// A copy of the built registry whose scanner reads nothing, for the upload-time benchmark (bench/packages.ts) to compare
// the registry with: the built scanner's file reader (packages/skill-package/dist/scan/file-scanner.js) has its push()
// and end() return at once, so each file handed to it is passed over unread. Everything else an upload does is the
// registry's own: inspection, the batches handed to the scan thread, the report.
// (A module hook cannot do this: scan threads load the scanner through require(), which such hooks do not see in Node 20.)
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const WORKSPACES = ['api-schemas', 'cli', 'client', 'skill-package'];
const FILE_SCANNER = path.join('packages', 'skill-package', 'dist', 'scan', 'file-scanner.js');
const METHODS = ['    push(chunk) {\n', '    end() {\n'];

/** Writes the copy under `directory` and returns it, to run the registry from (its `dist/cli/main.js`). */
export function scanNothingBuild(directory: string): string {
  mkdirSync(path.join(directory, 'node_modules', '@skill-registry'), { recursive: true });
  cpSync(path.join(ROOT, 'dist'), path.join(directory, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(directory, 'package.json'));
  for (const name of WORKSPACES) {
    const from = path.join(ROOT, 'packages', name);
    const to = path.join(directory, 'packages', name);
    for (const part of ['dist', 'wasm', 'package.json'])
      if (existsSync(path.join(from, part))) cpSync(path.join(from, part), path.join(to, part), { recursive: true });
    symlinkSync(path.join('..', '..', 'packages', name), path.join(directory, 'node_modules', '@skill-registry', name));
  }
  // Every other dependency is the repository's own.
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name !== '@skill-registry') symlinkSync(path.join(ROOT, 'node_modules', name), path.join(directory, 'node_modules', name));
  }
  const file = path.join(directory, FILE_SCANNER);
  let source = readFileSync(file, 'utf8');
  // Loudly, rather than measure a registry that scans after all.
  for (const method of METHODS) {
    if (!source.includes(method)) throw new Error(`${FILE_SCANNER} has no ${JSON.stringify(method.trim())} to empty`);
    source = source.replace(method, `${method}        return;\n`);
  }
  writeFileSync(file, source);
  return directory;
}
