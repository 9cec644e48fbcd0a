// Realistic package contents for the scanner benchmark: Markdown, JavaScript, Python, JSON and binary images,
// generated deterministically so every run scans the same bytes.

const MIB = 1024 * 1024;

/** A small deterministic generator, so every run scans the same bytes. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a of to and in is it for on with as this that by from be are or an at use when your you can will skill file files ' +
  'user users data token tokens request response install run command script output input value key list table page report ' +
  'model agent tool tools document documents format convert extract text image images read write update create delete check ' +
  'error errors test tests build server client environment variable variables config configuration path folder directory ' +
  'example examples note notes return returns option options default json yaml markdown python node shell browser network ' +
  'fetch upload download email password secret account project version release change changes step steps first then'
).split(' ');

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(rand, WORDS));
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function markdown(rand: () => number, bytes: number): string {
  const parts: string[] = ['---\nname: bench-doc\ndescription: A document for the scanner benchmark.\n---\n'];
  let size = 0;
  while (size < bytes) {
    const kind = rand();
    let block: string;
    if (kind < 0.1) block = `## ${sentence(rand, 4)}\n`;
    else if (kind < 0.6) block = `${sentence(rand, 12 + Math.floor(rand() * 30))} ${sentence(rand, 10)}\n`;
    else if (kind < 0.75)
      block = `- ${sentence(rand, 8)}\n- ${sentence(rand, 6)} See [the docs](https://docs.${pick(rand, WORDS)}.org/${pick(rand, WORDS)}).\n`;
    else if (kind < 0.9)
      block = `\`\`\`bash\nnpm install ${pick(rand, WORDS)}-${pick(rand, WORDS)}\npython scripts/${pick(rand, WORDS)}.py --input ${pick(rand, WORDS)}.json\ngit clone https://github.com/${pick(rand, WORDS)}/${pick(rand, WORDS)}.git\n\`\`\`\n`;
    else block = `| ${pick(rand, WORDS)} | ${pick(rand, WORDS)} | ${sentence(rand, 5)} |\n`;
    parts.push(block, '\n');
    size += block.length + 1;
  }
  return parts.join('');
}

function javascript(rand: () => number, bytes: number): string {
  const lines = [
    () => `const ${pick(rand, WORDS)}List = await fetch(\`\${baseUrl}/${pick(rand, WORDS)}\`, { method: 'GET' });`,
    () => `function ${pick(rand, WORDS)}${pick(rand, WORDS)}(a, b) {`,
    () => `  if (user.${pick(rand, WORDS)} === undefined) return null;`,
    () => `  return items.map((item) => item.${pick(rand, WORDS)} + ${Math.floor(rand() * 100)});`,
    () => '}',
    () => `// ${sentence(rand, 8)}`,
    () => `import { ${pick(rand, WORDS)} } from './${pick(rand, WORDS)}.js';`,
    () => `export const ${pick(rand, WORDS).toUpperCase()}_LIMIT = ${Math.floor(rand() * 10000)};`,
    () => `  const token = process.env.${pick(rand, WORDS).toUpperCase()}_TOKEN ?? '';`,
    () => `  console.log('${sentence(rand, 5)}');`,
  ];
  return generate(rand, bytes, lines);
}

function python(rand: () => number, bytes: number): string {
  const lines = [
    () => `def ${pick(rand, WORDS)}_${pick(rand, WORDS)}(path, options=None):`,
    () => `    """${sentence(rand, 9)}"""`,
    () => `    with open(path, encoding="utf-8") as handle:`,
    () => `        data = json.load(handle)`,
    () => `    value = os.environ.get("${pick(rand, WORDS).toUpperCase()}", "default")`,
    () => `    return [item["${pick(rand, WORDS)}"] for item in data if item]`,
    () => `import ${pick(rand, WORDS)}`,
    () => `# ${sentence(rand, 10)}`,
    () => `    response = requests.get(f"{BASE_URL}/${pick(rand, WORDS)}", timeout=30)`,
    () => '',
  ];
  return generate(rand, bytes, lines);
}

function json(rand: () => number, bytes: number): string {
  const lines = [
    () => `  "${pick(rand, WORDS)}": "${sentence(rand, 4)}",`,
    () => `  "${pick(rand, WORDS)}_count": ${Math.floor(rand() * 1e6)},`,
    () => `  "url": "https://api.${pick(rand, WORDS)}.com/v1/${pick(rand, WORDS)}",`,
  ];
  return `{\n${generate(rand, bytes, lines)}  "end": true\n}\n`;
}

function generate(rand: () => number, bytes: number, lines: (() => string)[]): string {
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = pick(rand, lines)();
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

function binary(rand: () => number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) out.writeUInt32LE(Math.floor(rand() * 4294967296), Math.min(i, bytes - 4));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(out);
  return out;
}

/** 50 MiB: 30 MiB of text (Markdown, JavaScript, Python, JSON) and 20 MiB of binary (images), in 256 KiB files. */
export function mixedFiles(totalMib = 50): { path: string; bytes: Buffer }[] {
  const rand = prng(42);
  const files: { path: string; bytes: Buffer }[] = [{ path: 'SKILL.md', bytes: Buffer.from(markdown(rand, 8 * 1024)) }];
  const fileBytes = 256 * 1024;
  const count = Math.floor((totalMib * MIB) / fileBytes);
  for (let i = 0; i < count; i++) {
    const slot = i % 10;
    if (slot < 2) files.push({ path: `docs/guide-${i}.md`, bytes: Buffer.from(markdown(rand, fileBytes)) });
    else if (slot < 4) files.push({ path: `scripts/tool-${i}.js`, bytes: Buffer.from(javascript(rand, fileBytes)) });
    else if (slot < 5) files.push({ path: `scripts/tool-${i}.py`, bytes: Buffer.from(python(rand, fileBytes)) });
    else if (slot < 6) files.push({ path: `data/table-${i}.json`, bytes: Buffer.from(json(rand, fileBytes)) });
    else files.push({ path: `assets/image-${i}.png`, bytes: binary(rand, fileBytes) });
  }
  return files;
}

/**
 * A large package made as large public skills are: a few MiB of text and the rest binary assets. Of 3,952 public
 * skills scanned (docs/performance.md, "A 50 MiB package as skills are made"), the one with the most text holds
 * 1.8 MiB of it; a skill of several MiB is one with fonts, images or data beside its text. By default `textMib` is
 * 4 MiB (Markdown, JavaScript, Python and JSON in the proportions of mixedFiles) and the rest of `totalMib` binary
 * assets of 4 MiB each.
 */
export function assetHeavyFiles(totalMib = 50, textMib = 4): { path: string; bytes: Buffer }[] {
  const rand = prng(7);
  const files: { path: string; bytes: Buffer }[] = [{ path: 'SKILL.md', bytes: Buffer.from(markdown(rand, 8 * 1024)) }];
  const fileBytes = 256 * 1024;
  const kinds = ['md', 'md', 'js', 'js', 'py', 'json'] as const;
  for (let i = 0; i < Math.floor((textMib * MIB) / fileBytes); i++) {
    const kind = kinds[i % kinds.length]!;
    if (kind === 'md') files.push({ path: `docs/guide-${i}.md`, bytes: Buffer.from(markdown(rand, fileBytes)) });
    else if (kind === 'js') files.push({ path: `scripts/tool-${i}.js`, bytes: Buffer.from(javascript(rand, fileBytes)) });
    else if (kind === 'py') files.push({ path: `scripts/tool-${i}.py`, bytes: Buffer.from(python(rand, fileBytes)) });
    else files.push({ path: `data/table-${i}.json`, bytes: Buffer.from(json(rand, fileBytes)) });
  }
  return withAssets(files, totalMib, rand);
}

/** `files` and binary assets of 4 MiB each after them, up to `totalMib` MiB in all. */
export function withAssets(
  files: readonly { path: string; bytes: Buffer }[],
  totalMib: number,
  rand = prng(7),
): { path: string; bytes: Buffer }[] {
  const out = [...files];
  const assetBytes = 4 * MIB;
  const used = files.reduce((n, f) => n + f.bytes.length, 0);
  for (let i = 0, left = totalMib * MIB - used; left > 0; i++, left -= assetBytes)
    out.push({ path: `assets/image-${i}.png`, bytes: binary(rand, Math.min(assetBytes, left)) });
  return out;
}
