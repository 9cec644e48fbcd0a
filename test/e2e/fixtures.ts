import { randomBytes } from 'node:crypto';
import { tarGz, zip, type ArchiveFile } from '../helpers/archives.js';
import type { Api, SeedUser } from './harness.js';

/** A SKILL.md as a publisher would write it; `hostile` adds a script and a javascript: link a renderer must keep inert. */
export function richSkillMd(name: string, title: string, description: string, hostile = true): string {
  return `---
name: ${name}
description: ${description}
license: MIT
allowed-tools: Bash Read
---

# ${title}

${description} Use it when a task involves reading PDF files.

## Quick start

1. Run \`scripts/extract.py <file.pdf>\` to get the text of every page.
2. Read [the form guide](reference/forms.md) before filling forms.

\`\`\`bash
python scripts/extract.py report.pdf --pages 1-3
\`\`\`

| Task | Script |
|------|--------|
| Text | scripts/extract.py |
| Tables | scripts/tables.py |
${hostile ? '\n<script>window.__skillScriptRan = true</script>\n\n[A link that must not run](javascript:window.__skillLinkRan=true)\n' : ''}`;
}

export interface Package {
  files: ArchiveFile[];
  archive: Buffer;
}

/** A realistic zip package: SKILL.md, scripts, a reference document, and some binary data. */
export async function pdfToolsPackage(
  options: { name?: string; title?: string; description?: string; padding?: number; hostile?: boolean } = {},
): Promise<Package> {
  const name = options.name ?? 'pdf-tools';
  const files: ArchiveFile[] = [
    {
      path: 'SKILL.md',
      content: richSkillMd(
        name,
        options.title ?? 'PDF Tools',
        options.description ?? 'Extract text and tables from PDF files.',
        options.hostile ?? true,
      ),
    },
    {
      path: 'scripts/extract.py',
      content:
        'import sys\n\n\ndef extract(path):\n    """Return the text of every page."""\n    return open(path, "rb").read()\n\n\nif __name__ == "__main__":\n    print(extract(sys.argv[1]))\n',
    },
    { path: 'scripts/tables.py', content: 'def tables(path):\n    return []\n' },
    { path: 'reference/forms.md', content: '# Filling forms\n\nFields are listed in page order.\n' },
    { path: 'LICENSE.txt', content: 'MIT License\n' },
  ];
  // Incompressible bytes make the archive big enough for the upload to take a visible moment.
  if (options.padding) files.push({ path: 'assets/sample.bin', content: randomBytes(options.padding) });
  return { files, archive: await zip(files) };
}

/** A gzip-compressed tar the registry must refuse: one entry climbs out of the package folder. */
export async function escapingPackage(): Promise<Buffer> {
  return tarGz([
    { path: 'SKILL.md', content: richSkillMd('escape', 'Escape', 'A package that must be refused.') },
    { path: '../escape.txt', content: 'outside\n' },
  ]);
}

export interface CatalogEntry {
  slug: string;
  name: string;
  description: string;
  category: string;
  tags: string[];
  source_type: 'github' | 'external' | 'original' | null;
  source_url: string | null;
}

/** A small, plausible catalogue, so that pages (and the screenshots in the docs) look like real use. */
export const CATALOG: CatalogEntry[] = [
  {
    slug: 'pdf-tools',
    name: 'PDF Tools',
    description: 'Extract text and tables from PDF files, fill forms and merge documents.',
    category: 'documents',
    tags: ['pdf', 'office', 'forms'],
    source_type: 'github',
    source_url: 'https://github.com/acme/pdf-tools',
  },
  {
    slug: 'spreadsheet-wizard',
    name: 'Spreadsheet Wizard',
    description: 'Read, clean and chart spreadsheets; formulas explained in plain words.',
    category: 'documents',
    tags: ['xlsx', 'csv', 'office'],
    source_type: 'external',
    source_url: 'https://sheets.example.com/wizard',
  },
  {
    slug: 'slide-deck-builder',
    name: 'Slide Deck Builder',
    description: 'Turn an outline into a clean presentation with speaker notes.',
    category: 'documents',
    tags: ['pptx', 'office'],
    source_type: 'original',
    source_url: null,
  },
  {
    slug: 'changelog-writer',
    name: 'Changelog Writer',
    description: 'Draft release notes from commit history, grouped by kind of change.',
    category: 'development',
    tags: ['git', 'release'],
    source_type: 'github',
    source_url: 'https://github.com/acme/changelog-writer',
  },
  {
    slug: 'sql-helper',
    name: 'SQL Helper',
    description: 'Explain, format and optimise SQL queries for PostgreSQL and SQLite.',
    category: 'development',
    tags: ['sql', 'postgres', 'sqlite'],
    source_type: null,
    source_url: null,
  },
  {
    slug: 'alt-text',
    name: 'Alt Text Writer',
    description: 'Describe images for screen readers in a sentence or two.',
    category: 'accessibility',
    tags: ['images', 'a11y'],
    source_type: 'original',
    source_url: null,
  },
];

/**
 * Publishes the catalogue as user "acme": each skill with version 1.0.0, PDF Tools featured, and download
 * counts falling from the first skill to the last. Returns the owner and each package's sha256.
 */
export async function seedCatalog(api: Api, adminCookie: string): Promise<{ owner: SeedUser; sha256: Record<string, string> }> {
  const owner = await api.user('acme');
  const sha256: Record<string, string> = {};
  for (const [index, entry] of CATALOG.entries()) {
    const { slug, ...fields } = entry;
    await api.skill(owner.cookie, { slug, ...fields });
    const pkg = await pdfToolsPackage({ name: slug, title: entry.name, description: entry.description, hostile: false });
    const version = await api.upload(owner.cookie, slug, '1.0.0', pkg.archive, { changelog: 'First release.' });
    sha256[slug] = version.sha256;
    await api.setStatus(adminCookie, slug, 'published');
    for (let i = 0; i < CATALOG.length - index; i += 1) await api.call('GET', `/v1/skills/${slug}/versions/1.0.0/download`);
  }
  await api.feature(adminCookie, 'pdf-tools');
  return { owner, sha256 };
}
