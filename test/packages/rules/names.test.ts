import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESERVED_NAMES, reservedWord } from '@skill-registry/rules/names/reserved';
import { letterForm, skeleton, visibleForm } from '@skill-registry/rules/names/skeleton';
import { soundForm } from '@skill-registry/rules/names/sound';
import { wordReadings } from '@skill-registry/rules/names/words';
import {
  POPULAR_DOWNLOADS,
  judgeName,
  looksLikeTag,
  nameIndex,
  editsApart,
  oneEditApart,
  shortEdits,
  type ExistingName,
} from '@skill-registry/rules/names/similarity';

const popular = (name: string, ownerId = 'alice'): ExistingName => ({ name, ownerId, downloads: POPULAR_DOWNLOADS, published: true });
const quiet = (name: string, ownerId = 'alice'): ExistingName => ({ name, ownerId, downloads: POPULAR_DOWNLOADS - 1, published: true });

describe('name skeletons', () => {
  it('fold case, separators, look-alike digits and letter pairs', () => {
    for (const variant of ['pdf-tools', 'PDF_TOOLS', 'pdf.tools', 'pdftools', 'pdf-t00ls', 'pdf-too1s', 'pdf-tooIs', 'pdf--tools'])
      assert.equal(skeleton(variant), skeleton('pdf-tools'), variant);
    assert.equal(skeleton('modern'), skeleton('rnodern'));
    assert.equal(skeleton('s3cur3-5h3ll'), skeleton('secure-shell'));
    assert.equal(skeleton('w4tch'), skeleton('vvatch'));
  });

  it('fold Cyrillic, Greek, fullwidth, accented and invisible characters to what they look like', () => {
    assert.equal(visibleForm('pdf-tооls'), 'pdf-tools'); // Cyrillic о
    assert.equal(visibleForm('раураl'), 'paypal'); // Cyrillic р, а, у
    assert.equal(visibleForm('ｐｄｆ'), 'pdf');
    assert.equal(visibleForm('pdf-tööls'), 'pdf-tools');
    assert.equal(visibleForm('pdf\u200b-tools'), 'pdf-tools');
    assert.equal(skeleton('PDF‐TΟΟLS'), skeleton('pdf-tools')); // a Unicode hyphen and Greek capital omicrons
  });

  it('keep names that differ by a digit or a real letter apart', () => {
    assert.notEqual(skeleton('pdf-16'), skeleton('pdf-18'));
    assert.notEqual(skeleton('user1x2'), skeleton('user1x3'));
    assert.notEqual(skeleton('pdf-tools'), skeleton('pdf-tool'));
    assert.notEqual(skeleton('docx'), skeleton('docs'));
    assert.equal(letterForm('brand-guidelines'), 'brandguldellnes');
  });
});

describe('reserved words', () => {
  it('are refused as they are and as look-alikes', () => {
    for (const word of ['admin', 'Adm1n', 'a-d-m-i-n', 'аdmin', 'with-package', 'withpackage', 'healthz', 'v1', 'me', 'new', 'official'])
      assert.notEqual(reservedWord(word), null, word);
    assert.equal(reservedWord('Adm1n'), 'admin');
  });

  it('leave other names alone', () => {
    for (const word of ['administration-tools', 'admins-guide', 'pdf', 'meet', 'newsletter', 'apis'])
      assert.equal(reservedWord(word), null, word);
  });

  it('hold the words every registry path starts with', () => {
    for (const word of [
      'api',
      'v1',
      'latest',
      'me',
      'with-package',
      'www',
      'root',
      'login',
      'skills',
      'users',
      'orgs',
      'search',
      'metrics',
      'readyz',
    ])
      assert.ok(RESERVED_NAMES.includes(word), word);
  });

  it('are reported as name_reserved naming the word', () => {
    const refusal = judgeName('Adm1n', nameIndex([]), null);
    assert.equal(refusal?.code, 'name_reserved');
    assert.equal(refusal.resembles, 'admin');
    assert.match(refusal.why, /"admin"/);
  });
});

describe('look-alike names', () => {
  const index = nameIndex([
    popular('pdf-tools'),
    quiet('quiet-notes'),
    popular('mine', 'bob'),
    { ...popular('draft-helper'), published: false },
  ]);

  it('refuse a name with the same skeleton as any other holder’s name, popular or not', () => {
    for (const variant of ['pdf_tools', 'PDF-T00LS', 'pdf-tооls', 'quiet_n0tes']) {
      const refusal = judgeName(variant, index, 'mallory');
      assert.equal(refusal?.code, 'name_too_similar', variant);
      assert.ok(refusal.resembles === 'pdf-tools' || refusal.resembles === 'quiet-notes');
      assert.match(refusal.why, /looks the same/);
    }
    assert.equal(judgeName('draft_helper', index, 'mallory')?.resembles, 'draft-helper');
  });

  it('refuse one typo of a popular name only', () => {
    for (const typo of ['pdf-tols', 'pdf-toools', 'pdf-tpols', 'pdf-otols', 'pdf-tool']) {
      const refusal = judgeName(typo, index, 'mallory');
      assert.equal(refusal?.resembles, 'pdf-tools', typo);
      assert.match(refusal.why, /one typo/);
    }
    assert.equal(judgeName('quiet-note', index, 'mallory'), null, 'a name with few downloads is not guarded against typos');
    assert.equal(judgeName('draft-helpers', index, 'mallory'), null, 'nor is an unpublished one');
    assert.equal(judgeName('pdf-toolbox', index, 'mallory'), null, 'two edits are another name');
  });

  it('refuse a popular name with a claim word, a tag or any one word before or after it', () => {
    for (const variant of [
      'pdf-tools-official',
      'pdf-tools-pro',
      'pdf-tools-v2',
      'pdf-tools-x7k2',
      'official-pdf-tools',
      'pdftoolsai',
      'real-pdf-tools',
      'pdf-tools-2024',
      'pdf-tools-kaze',
      'pdf-tools-extractor',
      'the-pdf-tools',
      'pdf-tools-qxbzd',
    ]) {
      const refusal = judgeName(variant, index, 'mallory');
      assert.equal(refusal?.resembles, 'pdf-tools', variant);
    }
    assert.match(judgeName('pdf-tools-official', index, 'mallory')!.why, /"official" added/);
    for (const free of ['pdf-toolshed', 'invoice-pdf-tools-kit', 'quiet-notes-pro'])
      assert.equal(judgeName(free, index, 'mallory'), null, free);
  });

  it('never hold a holder’s own names against it', () => {
    for (const own of ['pdf-tools-pro', 'pdf_tools', 'pdf-tool', 'official-pdf-tools'])
      assert.equal(judgeName(own, index, 'alice'), null, own);
    assert.equal(judgeName('mine-v2', index, 'alice')?.resembles, 'mine');
    assert.equal(judgeName('mine-v2', index, 'bob'), null);
  });

  it('leave a name identical to a held one to the caller’s own taken answer', () => {
    assert.equal(judgeName('pdf-tools', index, 'mallory'), null);
  });

  it('read tags and edits as documented', () => {
    for (const tag of ['v2', 'x7k2', '2024', 'xkq', 'js']) assert.ok(looksLikeTag(tag), tag);
    for (const word of ['hooks', 'native', 'a', 'extractor']) assert.ok(!looksLikeTag(word), word);
    assert.ok(oneEditApart('abcde', 'abde'));
    assert.ok(oneEditApart('abcde', 'abdce'));
    assert.ok(oneEditApart('abcde', 'abxde'));
    assert.ok(!oneEditApart('abcde', 'abcde'));
    assert.ok(!oneEditApart('abcde', 'badce'));
    assert.ok(!oneEditApart('abcde', 'abc'));
  });
});

describe('word order, added words, short names and sound-alikes', () => {
  const index = nameIndex([
    popular('internal-comms'),
    popular('pdf'),
    popular('docx'),
    popular('xlsx'),
    popular('security-review'),
    popular('coding-standards'),
    popular('python-patterns'),
    popular('detecting-sql-injection-vulnerabilities'),
    popular('mcp-builder'),
    popular('database-migrations'),
    popular('clickhouse-io'),
    popular('checking-hipaa-compliance'),
    popular('skill-adapter'),
    popular('scanning-for-secrets'),
    popular('article-writing'),
    quiet('quiet-notes'),
    quiet('abc'),
  ]);
  const refused = (name: string) => judgeName(name, index, 'mallory');

  it('refuse a popular name’s words in another order, however spelt', () => {
    for (const variant of [
      'comms-internal',
      'c0mms-1nternal',
      'kommz-internal',
      'review-security',
      'vulnerabilities-injection-sql-detecting',
    ]) {
      const refusal = refused(variant);
      assert.equal(refusal?.code, 'name_too_similar', variant);
      assert.equal(refusal.rule, 'word-order', variant);
    }
    assert.match(refused('comms-internal')!.why, /"internal-comms".*another order/);
    assert.equal(refused('notes-quiet'), null, 'a name with few downloads is not guarded against reorders');
  });

  it('refuse a popular name with one word anywhere or two dressing words added', () => {
    for (const [variant, rule] of [
      ['review-security-skill', 'word-added'],
      ['security-pro-review', 'word-added'],
      ['pdf-pdf', 'word-added'],
      ['pdf-by-acme', 'words-added'],
      ['best-free-pdf', 'words-added'],
      ['internal-comms-for-teams', 'words-added'],
      ['the-comms-internal-v2', 'words-added'],
      ['my-security-review-app', 'words-added'],
    ] as const) {
      const refusal = refused(variant);
      assert.equal(refusal?.rule, rule, variant);
    }
    assert.match(refused('pdf-by-acme')!.why, /"by", "acme" added/);
  });

  it('leave real names with words of substance added free', () => {
    for (const free of [
      'pdf-form-filler',
      'md-to-docx',
      'pdf-processing-toolkit',
      'pdf-processing-pro',
      'mcp-server-builder',
      'database-migrations-sql-migrations',
      'python-design-patterns',
      'python-anti-patterns',
      'mcp-implementation-security-review',
      'internal-comms-slack-digest-bot',
      'java-docs',
      'coding-guidelines',
    ])
      assert.equal(refused(free), null, free);
  });

  it('refuse the confusable edits of a short popular name and no others', () => {
    for (const variant of ['pdfs', 'pdfz', 'pddf', 'pdff', 'docxs', 'dcx', 'xlsxes']) {
      const refusal = refused(variant);
      assert.ok(refusal?.rule === 'short-edit' || refusal?.rule === 'sound', variant);
      assert.ok(['pdf', 'docx', 'xlsx'].includes(refusal.resembles!), variant);
    }
    for (const free of ['pdq', 'pdg', 'odf', 'pf', 'abcs', 'xls', 'doc']) assert.equal(refused(free), null, free);
    assert.deepEqual(shortEdits('pdf'), ['pdfs', 'pdfes']);
    assert.deepEqual(shortEdits('docx'), ['docxs', 'docxes', 'dcx']);
  });

  it('refuse a name that sounds like a popular one', () => {
    for (const variant of ['dockz', 'docks', 'koding-standardz', 'coding-standardz', 'sekurity-review', 'ksls-ks'])
      assert.ok(refused(variant) !== null, variant);
    assert.equal(refused('dockz')?.resembles, 'docx');
    assert.equal(refused('koding-standardz')?.rule, 'sound');
  });

  it('fold sound-alike spellings one way, keeping docs apart from docx', () => {
    assert.equal(soundForm(skeleton('dockz')), soundForm(skeleton('docx')));
    assert.equal(soundForm(skeleton('fone')), soundForm(skeleton('phone')));
    assert.equal(soundForm(skeleton('metricz')), soundForm(skeleton('metrics')));
    assert.equal(soundForm(skeleton('pptxx')), soundForm(skeleton('pptx')));
    assert.notEqual(soundForm(skeleton('docs')), soundForm(skeleton('docx')));
    assert.notEqual(soundForm(skeleton('pdf-16')), soundForm(skeleton('pdf-18')));
  });

  it('read a name as fewer words with at most two set aside', () => {
    assert.equal(wordReadings('a-b').length, 3);
    assert.equal(wordReadings('a-b-c-d').length, 1 + 4 + 6);
    assert.deepEqual(
      wordReadings('pdf-kit-tools').map((reading) => reading.inside),
      [false, false, true, false, false, false, false],
    );
  });

  it('refuse two typos inside a long popular name, and a typo with a word added', () => {
    for (const [variant, rule] of [
      ['security-rivew', 'two-edits'],
      ['codng-standadrs', 'two-edits'],
      ['ocding-standadrs', 'two-edits'],
      ['security-reveiw-pro', 'one-edit'],
      ['the-databse-migrations', 'one-edit'],
    ] as const)
      assert.equal(refused(variant)?.rule, rule, variant);
    assert.match(refused('security-reveiw-pro')!.why, /"pro" added and a typo/);
    // A reader checks a long name's first and last letters: changes there make other names.
    for (const free of ['app-builder', 'security-reviewer', 'database-migrator', 'kodeing-standard'])
      assert.equal(refused(free), null, free);
  });

  it('refuse a popular name’s words run together in another order', () => {
    for (const variant of ['reviewsecurity', 'commsinternal', 'standardzcoding', 'ioclickhouse'])
      assert.equal(refused(variant)?.rule, 'word-order', variant);
    assert.equal(refused('notesquiet'), null);
  });

  it('refuse a popular name dressed with any number of dressing words or followed by a byline', () => {
    for (const [variant, rule] of [
      ['get-the-best-security-review', 'words-added'],
      ['get-the-best-pdf', 'words-added'],
      ['my-new-official-skill-adapter-v2', 'words-added'],
      ['security-review-by-acme-labs', 'byline'],
      ['skill-adapter-skill-by-anthropic', 'byline'],
      ['pdf-agent-from-acme-labs', 'byline'],
    ] as const)
      assert.equal(refused(variant)?.rule, rule, variant);
    // Before a byline, a name that says what else it does is another name.
    for (const free of ['write-coding-standards-from-file', 'security-review-checklist-by-owasp-team', 'pdf-form-filler-by-acme'])
      assert.equal(refused(free), null, free);
  });

  it('refuse a popular name between a word of substance and a claim or version, and a typo with a mark run on', () => {
    for (const [variant, rule] of [
      ['google-security-review-pro', 'words-added'],
      ['acme-skill-adapter-v2', 'words-added'],
      ['security-rview2', 'one-edit'],
      ['skil-adapterpro', 'one-edit'],
    ] as const)
      assert.equal(refused(variant)?.rule, rule, variant);
    // Numbered names differ by their numbers: a digit is never read as a typo under a run-on or two edits.
    const numbered = nameIndex([popular('user13820x49'), popular('project-alpha-2024-archive')]);
    for (const free of ['user13820x423', 'project-alpha-2025-archiv']) assert.equal(judgeName(free, numbered, 'mallory'), null, free);
    // A word of substance on each side, or a short word that only looks like a tag, makes another name.
    for (const free of ['tdd-security-review-cycle', 'google-security-review-checklist']) assert.equal(refused(free), null, free);
  });

  it('refuse a popular name with vowels left out of its words', () => {
    for (const variant of ['scrty-review', 'clckhs-io', 'checking-hipaa-cmplnc', 'security-rvw'])
      assert.equal(refused(variant)?.rule, 'abbreviated', variant);
    assert.equal(refused('python-pttrns')?.resembles, 'python-patterns');
  });

  it('read plurals, k for c and digits for i inside a popular name’s words', () => {
    for (const variant of [
      'securitys-review-2026',
      'skills-adapter-v3',
      'klikhouse-io-pro',
      'io-c11ckh0u53',
      'writing-4r71c13',
      'docks-expert',
    ])
      assert.notEqual(refused(variant), null, variant);
  });

  it('refuse a vendor word with a role word, a vendor word run on, another ending with a claim, and words turned round run together with a claim', () => {
    for (const [variant, rule] of [
      ['meta-security-review-assistant', 'words-added'],
      ['aws-pdf-bot', 'words-added'],
      ['awssecurityreview', 'word-added'],
      ['skilladaptergemini', 'word-added'],
      ['security-reviewer-hq', 'word-added'],
      ['pdfer-pro', 'word-added'],
      ['pro-coding-standarder', 'word-added'],
      ['reviewsecurityplus', 'word-order'],
      ['v2adapterskill', 'word-order'],
    ] as const)
      assert.equal(refused(variant)?.rule, rule, variant);
    assert.equal(refused('security-reviewer-hq')?.resembles, 'security-review');
    for (const [variant, base] of [
      ['v3-aws-security-review', 'security-review'],
      ['skill-adapter-openai-v2', 'skill-adapter'],
    ] as const)
      assert.equal(refused(variant)?.resembles, base, variant);
    // Two changes together: a role word beside a claim at one end, a vendor word beside another ending, a role word
    // run on, an abbreviation with a claim.
    for (const [variant, rule] of [
      ['skill-adapter-bot-pro', 'words-added'],
      ['gcp-security-reviewing', 'word-added'],
      ['securityreviewhelper', 'word-added'],
      ['scrty-rvw-pro', 'abbreviated'],
      ['claudesecurityreviewbot', 'words-added'],
      ['prosecurityreviewhq', 'words-added'],
      ['copilot-scrty-rvw', 'abbreviated'],
      ['securityreviewaws-pro', 'words-added'],
      ['awssecurityreviews', 'word-added'],
      ['securtyreviewbot', 'one-edit'],
      ['securityreviewforaws', 'words-added'],
      ['scrtyrvw', 'abbreviated'],
      // Abbreviated with a first vowel dropped or letters that meet folded, a vendor word run on; a sound-alike with a
      // claim run on; a part written twice.
      ['sklladptr', 'abbreviated'],
      ['azurescrtyrvw', 'abbreviated'],
      ['claudesklladptr', 'abbreviated'],
      ['ppdfplus', 'sound'],
      ['securityreviewreview', 'reread'],
      ['microsoftsecuritysecurityreview', 'reread'],
      ['security-plus-security-review', 'reread'],
    ] as const)
      assert.equal(refused(variant)?.rule, rule, variant);
    // Read another way: a connector written as a digit, left out, or a word cut short.
    for (const [variant, base] of [
      ['scanning-4-secrets', 'scanning-for-secrets'],
      ['scanning-secrets', 'scanning-for-secrets'],
      ['secur-review', 'security-review'],
      ['detecting-sql-injec-vulnerabilities', 'detecting-sql-injection-vulnerabilities'],
      ['scanning-aws-secrets', 'scanning-for-secrets'],
      ['detectingzsqlzinjectionzvulnerabilities', 'detecting-sql-injection-vulnerabilities'],
      ['securitysreviews', 'security-review'],
    ] as const)
      assert.equal(refused(variant)?.resembles, base, variant);
    // Wrapped in a pitch (`your-… -made-easy`), or abbreviated in another order.
    for (const [variant, base] of [
      ['your-security-review-made-easy', 'security-review'],
      ['the-coding-standards-you-need', 'coding-standards'],
      ['rvw-scrty', 'security-review'],
    ] as const)
      assert.equal(refused(variant)?.resembles, base, variant);
    // A word cut to fewer than five letters is another word (`sec-review`), and so is a short word cut (`skill-adapt`).
    for (const free of ['sec-review', 'skill-adapt']) assert.equal(refused(free), null, free);
    // A part written twice inside another word is not a repeated word, and a name of many repeats is read once.
    assert.equal(refused('skill-skilladapter-notes'), null);
    assert.equal(refused('abc'.repeat(21)), null);
    // Another ending without a claim word names another thing (`security-reviewer`), and a role word beside a word of
    // substance in the middle of a name is another name.
    for (const free of [
      'security-reviewer',
      'security-reviewer-checklist',
      'pdf-review-assistant',
      'meta-analysis-assistant',
      'skill-adapter-form-pro',
      'security-review-dashboard-bot',
    ])
      assert.equal(refused(free), null, free);
  });

  it('never hold a holder’s own names against it', () => {
    for (const own of [
      'comms-internal',
      'pdfs',
      'dockz',
      'pdf-by-acme',
      'security-rivew',
      'scrty-review',
      'reviewsecurity',
      'security-reviewer-hq',
    ])
      assert.equal(judgeName(own, index, 'alice'), null, own);
  });
});

describe('bounded edit distance', () => {
  it('counts insertions, deletions, substitutions and swaps up to the bound', () => {
    assert.equal(editsApart('security', 'secrity', 2), true);
    assert.equal(editsApart('security', 'scerity', 2), true);
    assert.equal(editsApart('security', 'sceurity', 1), true);
    assert.equal(editsApart('security', 'secu', 2), false);
    assert.equal(editsApart('security', 'security', 2), false);
    assert.equal(editsApart('abcdefghij', 'abxdefgyij', 2), true);
    assert.equal(editsApart('abcdefghij', 'axxdefgyij', 2), false);
  });
});
