import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { checkSource, type SkillSource } from '@skill-registry/rules/source';

const accepted: [SkillSource, SkillSource][] = [
  [
    { source_type: 'github', source_url: 'https://github.com/acme/pdf-tools' },
    { source_type: 'github', source_url: 'https://github.com/acme/pdf-tools' },
  ],
  [
    { source_type: 'github', source_url: 'https://github.com/acme/pdf-tools/' },
    { source_type: 'github', source_url: 'https://github.com/acme/pdf-tools/' },
  ],
  [
    { source_type: 'github', source_url: 'https://github.com/acme/skills/tree/main/pdf' },
    { source_type: 'github', source_url: 'https://github.com/acme/skills/tree/main/pdf' },
  ],
  [
    { source_type: 'github', source_url: 'https://github.com/Acme-Co/repo.name_x' },
    { source_type: 'github', source_url: 'https://github.com/Acme-Co/repo.name_x' },
  ],
  [
    { source_type: 'external', source_url: 'https://example.com/skills/pdf' },
    { source_type: 'external', source_url: 'https://example.com/skills/pdf' },
  ],
  [
    { source_type: 'external', source_url: 'http://example.com:8080/x?y=1#z' },
    { source_type: 'external', source_url: 'http://example.com:8080/x?y=1#z' },
  ],
  [
    { source_type: 'original', source_url: null },
    { source_type: 'original', source_url: null },
  ],
  [
    { source_type: 'original', source_url: '' },
    { source_type: 'original', source_url: null },
  ],
  [
    { source_type: null, source_url: null },
    { source_type: null, source_url: null },
  ],
  [
    { source_type: null, source_url: '   ' },
    { source_type: null, source_url: null },
  ],
];

const refused: [string, SkillSource][] = [
  ['github over http', { source_type: 'github', source_url: 'http://github.com/acme/pdf-tools' }],
  ['github on another host', { source_type: 'github', source_url: 'https://gitlab.com/acme/pdf-tools' }],
  ['github look-alike host', { source_type: 'github', source_url: 'https://github.com.evil.example/acme/pdf-tools' }],
  ['github subdomain', { source_type: 'github', source_url: 'https://www.github.com/acme/pdf-tools' }],
  ['github with a port', { source_type: 'github', source_url: 'https://github.com:443/acme/pdf-tools' }],
  ['github with credentials', { source_type: 'github', source_url: 'https://user:pw@github.com/acme/pdf-tools' }],
  ['github owner only', { source_type: 'github', source_url: 'https://github.com/acme' }],
  ['github root', { source_type: 'github', source_url: 'https://github.com/' }],
  ['github with a query', { source_type: 'github', source_url: 'https://github.com/acme/pdf-tools?tab=readme' }],
  ['github with a dot-dot segment', { source_type: 'github', source_url: 'https://github.com/acme/../x' }],
  ['github without a URL', { source_type: 'github', source_url: null }],
  ['github not a URL', { source_type: 'github', source_url: 'github.com/acme/pdf-tools' }],
  ['external ftp', { source_type: 'external', source_url: 'ftp://example.com/x' }],
  ['external javascript:', { source_type: 'external', source_url: 'javascript:alert(1)' }],
  ['external relative', { source_type: 'external', source_url: '/skills/pdf' }],
  ['external with credentials', { source_type: 'external', source_url: 'https://user:secret@example.com/' }],
  ['external without a URL', { source_type: 'external', source_url: '' }],
  ['external too long', { source_type: 'external', source_url: `https://example.com/${'a'.repeat(2100)}` }],
  ['original with a URL', { source_type: 'original', source_url: 'https://example.com' }],
  ['undeclared with a URL', { source_type: null, source_url: 'https://github.com/acme/pdf-tools' }],
];

describe('source rules', () => {
  for (const [input, expected] of accepted) {
    it(`accepts ${input.source_type ?? 'null'} ${JSON.stringify(input.source_url)}`, () => {
      assert.deepEqual(checkSource(input), expected);
    });
  }
  for (const [name, input] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(
        () => checkSource(input),
        (error: unknown) => error instanceof AppError && error.status === 400 && error.code === 'invalid_source' && error.detail.length > 0,
      );
    });
  }
});
