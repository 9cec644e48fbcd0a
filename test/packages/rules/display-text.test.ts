import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../../src/domain/errors.js';
import { checkDisplayText, displayTextProblem, withoutRefusedCharacters } from '@skill-registry/rules/display-text';
import { checkName, normaliseTags } from '@skill-registry/rules/skill-fields';

/** Text that real skills are named and described in, which must all be accepted. */
const ORDINARY: Record<string, string> = {
  latin: 'PDF Tools — résumé naïve façade',
  arabic: 'أدوات ملفات PDF',
  persian: 'ابزار‌های پی‌دی‌اف', // ZWNJ between Arabic-script letters, as Persian is written
  hebrew: 'כלים לקובצי PDF',
  devanagari: 'पीडीएफ़ उपकरण हिन्दी',
  devanagariJoiner: 'क्‍ष', // ZWJ after a virama asks for a half form
  malayalam: 'മലയാളം ഉപകരണങ്ങൾ',
  cjk: 'PDF 工具 ツール 도구',
  thai: 'เครื่องมือ PDF ภาษาไทย',
  greekCyrillic: 'Εργαλεία Инструменты',
  emoji: 'Tools 🛠️ ❤️ 1️⃣ 🇫🇷',
  skinTones: '👍🏿 👋🏽',
  zwjFamily: '👨‍👩‍👧‍👦',
  zwjProfession: '👩🏽‍💻 developer',
  zwjFlag: '🏳️‍🌈 and ❤️‍🔥',
  zwjGendered: '🏃‍♀️ runner',
  mixedDirection: 'PDF أدوات and כלים',
};

/** One of each kind of refused character, inside otherwise ordinary text. */
const REFUSED: [string, string, RegExp][] = [
  ['right-to-left override', 'PDF\u202eslooT', /U\+202E at character 4: a bidirectional control/],
  ['left-to-right embedding', 'a\u202Ab', /U\+202A at character 2: a bidirectional control/],
  ['pop directional formatting', 'a\u202Cb', /U\+202C .*bidirectional/],
  ['first-strong isolate', '\u2068name\u2069', /U\+2068 at character 1: a bidirectional control/],
  ['left-to-right isolate', 'ab\u2066c', /U\+2066 at character 3/],
  ['left-to-right mark', 'ab\u200Ec', /U\+200E .*bidirectional/],
  ['right-to-left mark', 'ab\u200Fc', /U\+200F .*bidirectional/],
  ['Arabic letter mark', 'ab\u061Cc', /U\+061C .*bidirectional/],
  ['zero-width space', 'Pay\u200BPal', /U\+200B at character 4: an invisible character/],
  ['zero-width non-joiner in Latin', 'Pay\u200CPal', /U\+200C .*non-joiner/],
  ['zero-width joiner in Latin', 'Pay\u200DPal', /U\+200D .*joiner outside an emoji sequence/],
  ['zero-width joiner after an emoji before a letter', '👩\u200Da', /U\+200D/],
  ['word joiner', 'a\u2060b', /U\+2060 .*invisible/],
  ['invisible times', 'a\u2062b', /U\+2062 .*invisible/],
  ['invisible plus', 'a\u2064b', /U\+2064 .*invisible/],
  ['byte order mark', '\uFEFFname', /U\+FEFF at character 1/],
  ['soft hyphen', 'pay\u00ADpal', /U\+00AD .*invisible/],
  ['combining grapheme joiner', 'a\u034Fb', /U\+034F .*invisible/],
  ['Hangul choseong filler', '\u115F', /U\+115F/],
  ['Hangul jungseong filler', 'a\u1160', /U\+1160/],
  ['Hangul filler', '\u3164', /U\+3164/],
  ['halfwidth Hangul filler', 'x\uFFA0', /U\+FFA0/],
  ['Mongolian vowel separator', 'a\u180Eb', /U\+180E/],
  ['variation selector 1', 'a\uFE00', /U\+FE00 .*invisible/],
  ['variation selector 16 after a letter', 'x\uFE0F', /U\+FE0F .*follows no emoji/],
  ['ideographic variation selector', '葛\u{E0100}', /U\+E0100/],
  ['tag character', 'tools\u{E0041}\u{E007F}', /U\+E0041 at character 6: an invisible tag character/],
  ['interlinear annotation anchor', 'a\uFFF9hidden\uFFFBb', /U\+FFF9/],
  ['NUL', 'a\u0000b', /U\+0000 .*control character/],
  ['escape', 'a\u001B[31mred', /U\+001B .*control character/],
  ['delete', 'a\u007F', /U\+007F/],
  ['C1 control', 'a\u0085b', /U\+0085/],
  ['C1 control (CSI)', 'a\u009Bb', /U\+009B/],
  ['line break in a single line', 'two\nlines', /U\+000A at character 4: a line break; write it on one line/],
  ['tab in a single line', 'a\tb', /U\+0009 .*control character/],
  ['line separator', 'a\u2028b', /U\+2028 .*line break/],
  ['private use', 'logo \uE000', /U\+E000 at character 6: a private-use character/],
  ['supplementary private use', 'x\u{F0000}', /U\+F0000 .*private-use/],
  ['unassigned', 'a\u0378b', /U\+0378 .*does not assign/],
  ['noncharacter', 'a\uFFFF', /U\+FFFF .*does not assign/],
  ['lone surrogate', 'a\uD800b', /U\+D800 .*surrogate/],
];

describe('display text', () => {
  for (const [script, text] of Object.entries(ORDINARY)) {
    it(`accepts ordinary text: ${script}`, () => {
      assert.equal(displayTextProblem(text), null);
      assert.equal(displayTextProblem(text, { multiline: true }), null);
      assert.equal(checkName(text), text);
    });
  }

  for (const [kind, text, message] of REFUSED) {
    it(`refuses ${kind}`, () => {
      assert.match(displayTextProblem(text) ?? 'accepted', message);
    });
  }

  it('counts positions in characters, not UTF-16 units', () => {
    assert.match(displayTextProblem('🛠️🛠️\u202E') ?? '', /at character 5:/);
  });

  it('allows line feeds, tabs and CRLF only in multi-line text', () => {
    assert.equal(displayTextProblem('one\ntwo\r\n\tthree', { multiline: true }), null);
    assert.match(displayTextProblem('one\rtwo', { multiline: true }) ?? '', /U\+000D .*end lines with \\n/);
    assert.match(displayTextProblem('a\u000Bb', { multiline: true }) ?? '', /U\+000B .*only \\n and \\t are allowed/);
    assert.match(displayTextProblem('a\u2029b', { multiline: true }) ?? '', /U\+2029/);
    assert.match(displayTextProblem('PDF\u202E', { multiline: true }) ?? '', /U\+202E/);
  });

  it('throws a validation failure naming the field', () => {
    assert.throws(
      () => checkDisplayText('organisation', 'Acme\u200B'),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'validation_failed' &&
        error.status === 400 &&
        error.errors?.[0]?.field === 'organisation' &&
        error.errors[0].message.includes('U+200B at character 5'),
    );
    assert.doesNotThrow(() => checkDisplayText('organisation', 'Acme'));
  });

  it('is what the name and tag rules refuse', () => {
    assert.throws(
      () => checkName('PDF\u202EslooT'),
      (error: unknown) => error instanceof AppError && error.errors?.[0]?.field === 'name',
    );
    assert.throws(
      () => normaliseTags(['pdf', 'tools', 'x\u200By']),
      (error: unknown) => error instanceof AppError && error.errors?.[0]?.field === 'tags[2]' && error.errors[0].message.includes('U+200B'),
    );
    // A byte order mark that trimming would drop is refused all the same: what was sent is judged.
    assert.throws(
      () => normaliseTags(['\uFEFFpdf']),
      (error: unknown) => error instanceof AppError && error.errors?.[0]?.field === 'tags[0]',
    );
  });

  it('removes refused characters from text it keeps, and says which', () => {
    const cleaned = withoutRefusedCharacters('Reads \u202Efdp\u202C files\u200B.\nTabs\tstay. 👩🏽‍💻 x\uFE0F\u200D👩', { multiline: true });
    assert.equal(cleaned.text, 'Reads fdp files.\nTabs\tstay. 👩🏽‍💻 x👩');
    assert.deepEqual(cleaned.removed, ['U+202E', 'U+202C', 'U+200B', 'U+FE0F', 'U+200D']);
    assert.equal(displayTextProblem(cleaned.text, { multiline: true }), null);
    assert.deepEqual(withoutRefusedCharacters('plain'), { text: 'plain', removed: [] });
  });

  it('takes linear time on long hostile text', () => {
    const hostile = '\u200D\uFE0F'.repeat(50_000) + 'a'.repeat(50_000);
    const started = performance.now();
    withoutRefusedCharacters(hostile, { multiline: true });
    displayTextProblem('a'.repeat(100_000) + '\u202E');
    assert.ok(performance.now() - started < 2000);
  });
});
