// Skills written in other languages and scripts: CJK, accented Latin, Arabic, Hebrew and Persian (right to left,
// with the zero-width non-joiner Persian spelling needs), Devanagari, and emoji built from joiner sequences.
import { rng, type Rng } from '../prng.js';
import { frontMatter, pad2, type Sample } from '../sample.js';
import { benignSample, codeBlock, slug, table } from './common.js';

const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const LRM = '\u200e';
const RLM = '\u200f';

interface Localised {
  lang: string;
  name: string;
  title: string;
  description: string;
  intro: string;
  stepsHeading: string;
  steps: string[];
  exampleHeading: string;
  example: { lang: string; code: string };
  rtl?: boolean;
}

const TEXTS: Localised[] = [
  {
    lang: 'Chinese',
    name: 'csv-cleaner-zh',
    title: 'CSV 数据清洗',
    description: '清洗导出的 CSV 文件：去除多余空格、统一日期格式并删除重复行。当用户需要在分析前整理表格数据时使用。',
    intro: '本技能用于整理从各种系统导出的表格数据。处理前先备份原始文件。',
    stepsHeading: '## 步骤',
    steps: [
      '读取文件并自动识别分隔符（逗号、分号或制表符）',
      '去掉每个单元格首尾的空格',
      '把日期统一转换为 ISO 8601 格式（YYYY-MM-DD）',
      '删除完全重复的行，并告诉用户删除了多少行',
    ],
    exampleHeading: '## 示例',
    example: { lang: 'bash', code: 'python scripts/clean.py 销售数据.csv --out 销售数据_清洗后.csv' },
  },
  {
    lang: 'Chinese',
    name: 'meeting-minutes-zh',
    title: '会议纪要',
    description: '根据会议记录整理纪要：决定事项、待办事项（负责人和截止日期）以及未解决的问题。会议结束后使用。',
    intro: '请保持客观，只记录会上实际说过的内容，不要猜测。',
    stepsHeading: '## 工作流程',
    steps: ['通读整份记录', '用一句话列出每项决定', '按“负责人 — 任务 — 截止日期”列出待办事项', '最后列出仍未解决的问题'],
    exampleHeading: '## 输出格式',
    example: { lang: 'markdown', code: '### 决定\n- 下周三发布测试版\n\n### 待办\n- 王芳：更新价格页面（周五前）' },
  },
  {
    lang: 'Japanese',
    name: 'commit-message-ja',
    title: 'コミットメッセージ作成',
    description: 'ステージされた差分から分かりやすいコミットメッセージを作成します。ユーザーが変更をコミットしたいときに使います。',
    intro: 'リポジトリの既存の書き方（英語か日本語か、接頭辞の有無）に合わせてください。',
    stepsHeading: '## 手順',
    steps: [
      '`git diff --staged` を読む',
      '72文字以内の件名を書く',
      '本文には「なぜ」その変更をしたのかを書く',
      'コミットする前に必ずユーザーに確認する',
    ],
    exampleHeading: '## 例',
    example: {
      lang: 'text',
      code: 'fix: 月末の集計でタイムゾーンがずれる問題を修正\n\n集計バッチがUTCで日付を切っていたため、日本時間の月末分が翌月に入っていた。',
    },
  },
  {
    lang: 'Japanese',
    name: 'minutes-summary-ja',
    title: '議事録の要約',
    description: '会議の文字起こしから決定事項・宿題・未解決の論点をまとめます。長い会議のあとに使います。',
    intro: '発言者の意図を推測で補わないでください。不明な点は「要確認」と書きます。',
    stepsHeading: '## 進め方',
    steps: ['文字起こし全体を一度読む', '決定事項を一文ずつ挙げる', '宿題は担当者と期限つきで挙げる', '未解決の論点を最後にまとめる'],
    exampleHeading: '## 出力例',
    example: { lang: 'markdown', code: '## 決定事項\n- 新料金は4月1日から適用する\n\n## 宿題\n- 佐藤：FAQを更新（3月20日まで）' },
  },
  {
    lang: 'Korean',
    name: 'log-summary-ko',
    title: '로그 요약',
    description:
      '애플리케이션 로그를 요약합니다: 오류 유형별 건수, 최초 및 최종 발생 시각, 가장 자주 나타나는 메시지. 로그 파일을 받았을 때 사용합니다.',
    intro: '로그에 개인정보가 있으면 요약에 옮기지 말고 가려서 표시하세요.',
    stepsHeading: '## 절차',
    steps: [
      '로그 형식(JSON, logfmt, 일반 텍스트)을 확인합니다',
      '레벨과 메시지별로 묶습니다',
      '건수와 최초·최종 시각을 보고합니다',
      '그룹마다 대표 줄 세 개를 인용합니다',
    ],
    exampleHeading: '## 예시',
    example: { lang: 'bash', code: 'jq -r \'select(.level=="error") | .msg\' app.log | sort | uniq -c | sort -rn | head' },
  },
  {
    lang: 'French',
    name: 'notes-de-version',
    title: 'Rédacteur de notes de version',
    description:
      "Rédige les notes de version à partir des tickets fermés d'un jalon, regroupés par thème, avec les changements incompatibles en tête. À utiliser lors d'une publication.",
    intro: 'Écrivez pour les utilisateurs, pas pour l’équipe : évitez le jargon interne et les numéros de commit.',
    stepsHeading: '## Étapes',
    steps: [
      'Récupérer les tickets fermés du jalon',
      'Les regrouper par étiquette',
      'Écrire d’abord les changements incompatibles et la marche à suivre',
      'Garder chaque ligne sous 100 caractères',
    ],
    exampleHeading: '## Exemple',
    example: {
      lang: 'markdown',
      code: '### Changements incompatibles\n- L’option `--légacy` est supprimée ; utilisez `--compat`.\n\n### Nouveautés\n- Export en PDF accéléré (×3).',
    },
  },
  {
    lang: 'German',
    name: 'rechnungspruefung',
    title: 'Rechnungsprüfung',
    description:
      'Liest Rechnungen (PDF oder Bild) und prüft Lieferant, Datum, Positionen, Mehrwertsteuer und Gesamtbetrag. Für die Buchhaltung gedacht.',
    intro: 'Beträge immer mit Dezimal-Arithmetik prüfen, nie mit Gleitkommazahlen. Größere Abweichungen sofort melden.',
    stepsHeading: '## Ablauf',
    steps: [
      'Text extrahieren, bei Scans mit OCR',
      'Lieferant, Rechnungsnummer und Datum finden',
      'Positionen mit Menge und Betrag erfassen',
      'Prüfen, ob Positionen plus Steuer den Gesamtbetrag ergeben',
    ],
    exampleHeading: '## Beispiel',
    example: {
      lang: 'json',
      code: '{\n  "lieferant": "Müller & Söhne GmbH",\n  "nummer": "RE-2024-0815",\n  "netto": "1000.00",\n  "mwst": "190.00",\n  "brutto": "1190.00"\n}',
    },
  },
  {
    lang: 'Spanish',
    name: 'limpieza-de-datos',
    title: 'Limpieza de datos',
    description:
      'Limpia exportaciones CSV desordenadas: recorta celdas, normaliza fechas y elimina filas duplicadas. Úsala antes de analizar una hoja de cálculo.',
    intro: '¿El archivo viene de Excel? Revisa primero la codificación: a menudo es Windows-1252, no UTF-8.',
    stepsHeading: '## Pasos',
    steps: [
      'Leer el archivo detectando el separador',
      'Recortar los espacios de cada celda',
      'Convertir las fechas al formato ISO (AAAA-MM-DD)',
      'Eliminar las filas duplicadas e informar cuántas se quitaron',
    ],
    exampleHeading: '## Ejemplo',
    example: { lang: 'bash', code: 'python scripts/limpiar.py año_2024.csv --salida año_2024_limpio.csv' },
  },
  {
    lang: 'Portuguese',
    name: 'revisor-de-traducoes',
    title: 'Revisor de traduções',
    description:
      'Revisa textos traduzidos da interface: marcadores em falta, terminologia inconsistente e textos longos demais para os botões.',
    intro: 'Atenção às diferenças entre português europeu e do Brasil: confirme qual variante o projeto usa.',
    stepsHeading: '## Passos',
    steps: [
      'Carregar os ficheiros de origem e de destino',
      'Verificar que cada chave existe nos dois',
      'Confirmar que os marcadores como {count} coincidem',
      'Assinalar traduções muito mais longas do que o original',
    ],
    exampleHeading: '## Exemplo',
    example: { lang: 'json', code: '{\n  "cart.items": "{count} itens no seu carrinho",\n  "cart.empty": "O seu carrinho está vazio"\n}' },
  },
  {
    lang: 'Vietnamese',
    name: 'tro-ly-viet-email',
    title: 'Trợ lý viết email',
    description:
      'Soạn email chuyên nghiệp từ các gạch đầu dòng, với tiêu đề rõ ràng và lời kêu gọi hành động cụ thể. Dùng khi người dùng cần viết email.',
    intro: 'Giữ giọng văn lịch sự, ngắn gọn; tránh các cụm từ sáo rỗng.',
    stepsHeading: '## Các bước',
    steps: [
      'Hỏi người nhận và mục tiêu của email',
      'Viết tiêu đề dưới 60 ký tự',
      'Giữ nội dung dưới 150 từ',
      'Kết thúc bằng một yêu cầu rõ ràng',
    ],
    exampleHeading: '## Ví dụ',
    example: {
      lang: 'text',
      code: 'Tiêu đề: Nhắc hạn thanh toán hoá đơn 0193\n\nChào anh Sơn,\nEm xin nhắc hoá đơn 0193 sẽ đến hạn vào thứ Sáu này...',
    },
  },
  {
    lang: 'Polish',
    name: 'przeglad-kodu',
    title: 'Przegląd kodu',
    description:
      'Przegląda pull request według listy kontrolnej: poprawność, testy, nazewnictwo, obsługa błędów, bezpieczeństwo i wydajność.',
    intro: 'Zaczynaj od rzeczy najważniejszych; drobiazgi stylistyczne zostaw narzędziom.',
    stepsHeading: '## Kroki',
    steps: [
      'Przeczytaj opis i powiązane zgłoszenie',
      'Przejrzyj zmiany plik po pliku',
      'Zapisz każdą uwagę z plikiem i numerem linii',
      'Oddziel uwagi blokujące od sugestii',
    ],
    exampleHeading: '## Przykład',
    example: { lang: 'bash', code: 'gh pr diff 412 | less' },
  },
  {
    lang: 'Arabic',
    name: 'meeting-notes-ar',
    title: 'ملخص الاجتماعات',
    description:
      'يحوّل نص الاجتماع إلى ملاحظات منظمة: القرارات، والمهام مع المسؤولين والمواعيد، والأسئلة المفتوحة. استخدمه بعد تسجيل أي اجتماع.',
    intro: 'اكتب بلغة واضحة ومختصرة، ولا تضف شيئاً لم يُذكر في الاجتماع.',
    stepsHeading: '## الخطوات',
    steps: [
      'اقرأ النص كاملاً مرة واحدة',
      'اكتب كل قرار في جملة واحدة',
      'اذكر المهام بصيغة: المسؤول، المهمة، الموعد النهائي',
      'ضع الأسئلة المفتوحة في النهاية',
    ],
    exampleHeading: '## مثال',
    example: {
      lang: 'markdown',
      code: '### القرارات\n- إطلاق النسخة التجريبية يوم الأربعاء\n\n### المهام\n- سارة: تحديث صفحة الأسعار (قبل الجمعة)',
    },
    rtl: true,
  },
  {
    lang: 'Hebrew',
    name: 'log-summary-he',
    title: 'סיכום יומנים',
    description: 'מסכם קובצי יומן של אפליקציה: מספר השגיאות לפי סוג, מתי הופיעו לראשונה ולאחרונה, וההודעות הנפוצות ביותר.',
    intro: 'אל תעתיק לסיכום פרטים אישיים שמופיעים ביומן.',
    stepsHeading: '## שלבים',
    steps: ['זהה את פורמט היומן', 'קבץ שורות לפי רמה והודעה', 'דווח על מספרים וזמנים', 'צטט שלוש שורות לדוגמה מכל קבוצה'],
    exampleHeading: '## דוגמה',
    example: { lang: 'bash', code: 'python scripts/summarize.py app.log' },
    rtl: true,
  },
  {
    lang: 'Persian',
    name: 'email-writer-fa',
    title: 'دستیار نوشتن ایمیل',
    description: `ایمیل${ZWNJ}های رسمی را از روی چند نکته می${ZWNJ}نویسد، با موضوعی روشن و درخواستی مشخص.`,
    intro: `لحن را مؤدبانه و کوتاه نگه دارید و از جمله${ZWNJ}های کلیشه${ZWNJ}ای پرهیز کنید.`,
    stepsHeading: '## مراحل',
    steps: [
      'از کاربر بپرسید گیرنده کیست و هدف چیست',
      `موضوع را کوتاه${ZWNJ}تر از ۶۰ نویسه بنویسید`,
      'متن را زیر ۱۵۰ واژه نگه دارید',
      'با یک درخواست روشن تمام کنید',
    ],
    exampleHeading: '## نمونه',
    example: {
      lang: 'text',
      code: `موضوع: یادآوری سررسید فاکتور ۰۱۹۳\n\nسلام آقای رضایی،\nمی${ZWNJ}خواستم یادآوری کنم که فاکتور ۰۱۹۳ جمعه سررسید می${ZWNJ}شود.`,
    },
    rtl: true,
  },
  {
    lang: 'Hindi',
    name: 'meeting-notes-hi',
    title: 'बैठक के नोट्स',
    description: 'बैठक की प्रतिलिपि से निर्णय, कार्य-सूची और खुले प्रश्न तैयार करता है। बैठक के बाद उपयोग करें।',
    intro: 'केवल वही लिखें जो बैठक में कहा गया था; अनुमान न लगाएँ।',
    stepsHeading: '## चरण',
    steps: ['पूरी प्रतिलिपि एक बार पढ़ें', 'हर निर्णय को एक वाक्य में लिखें', 'कार्य: ज़िम्मेदार व्यक्ति, काम, अंतिम तिथि', 'अंत में खुले प्रश्न लिखें'],
    exampleHeading: '## उदाहरण',
    example: { lang: 'markdown', code: '### निर्णय\n- बीटा संस्करण बुधवार को जारी होगा' },
  },
];

function localised(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const perLanguage = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const t = TEXTS[i % TEXTS.length]!;
    const seq = (perLanguage.get(t.lang) ?? 0) + 1;
    perLanguage.set(t.lang, seq);
    const round = Math.floor(i / TEXTS.length);
    const name = round === 0 ? t.name : `${t.name}-${r.pick(['team', 'v2', 'lite', 'pro'])}`;
    const marks = t.rtl === true && round === 1;
    const steps = t.steps.map((s, k) => `${k + 1}. ${marks && s.includes('`') ? s.replace(/`([^`]+)`/g, `${LRM}\`$1\`${LRM}`) : s}`);
    const intro = marks ? `${t.intro} ${RLM}(v2.1)${RLM}` : t.intro;
    const body = [
      `# ${t.title}`,
      '',
      intro,
      '',
      t.stepsHeading,
      '',
      ...steps,
      '',
      t.exampleHeading,
      '',
      codeBlock(t.example.lang, t.example.code),
      '',
    ];
    if (round === 2 || r.chance(0.3)) {
      body.push(
        table(
          ['#', t.title],
          t.steps.slice(0, 3).map((s, k) => [String(k + 1), s]),
        ),
        '',
      );
    }
    out.push(
      benignSample(r, {
        id: `ben-i18n-${slug(t.lang)}-${pad2(seq)}`,
        note: `A skill written in ${t.lang}${t.rtl ? ' (right to left)' : ''}${t.lang === 'Persian' ? ', with the zero-width non-joiners Persian spelling uses' : ''}${marks ? ', with left-to-right and right-to-left marks around Latin text' : ''}`,
        name,
        skillMd: `${frontMatter(r, { name, description: t.description })}\n${body.join('\n')}`,
        closing: false,
      }),
    );
  }
  return out;
}

const WOMAN_TECHNOLOGIST = `\u{1f469}${ZWJ}\u{1f4bb}`;
const FAMILY = `\u{1f468}${ZWJ}\u{1f469}${ZWJ}\u{1f467}${ZWJ}\u{1f466}`;
const RAINBOW_FLAG = `\u{1f3f3}\ufe0f${ZWJ}\u{1f308}`;
const HEART_FIRE = `\u2764\ufe0f${ZWJ}\u{1f525}`;

function emoji(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const subjects = [
    'standup',
    'sprint-retro',
    'release-party',
    'team-onboarding',
    'weekly-digest',
    'hackathon',
    'community-newsletter',
    'support-replies',
  ];
  for (let i = 0; i < n; i++) {
    const subject = subjects[i % subjects.length]!;
    const name = slug(subject, r.pick(['emoji', 'helper', 'writer', 'bot']));
    const joiners = i % 2 === 0;
    const body = [
      `# ${subject.replace(/-/g, ' ')} ✨`,
      '',
      `Writes friendly ${subject.replace(/-/g, ' ')} messages with a few emoji. Keep it to one emoji per line at most 🙂.`,
      '',
      '## 🚀 Quick start',
      '',
      '1️⃣ Collect the updates',
      '2️⃣ Group them by person',
      '3️⃣ Post the message',
      '',
      '## Emoji legend',
      '',
      table(
        ['Emoji', 'Meaning'],
        [
          ['✅', 'done'],
          ['🚧', 'in progress'],
          ['🔥', 'urgent'],
          ['👍🏽', 'agreed'],
          ...(joiners
            ? [
                [WOMAN_TECHNOLOGIST, 'engineering update'],
                [FAMILY, 'whole team'],
                [RAINBOW_FLAG, 'community event'],
                [HEART_FIRE, 'team favourite'],
              ]
            : [['🇫🇷 🇩🇪 🇯🇵', 'office locations']]),
        ],
      ),
      '',
      r.chance(0.5)
        ? `## Example\n\n${codeBlock('text', `🚀 Release 2.4 is live!\n✅ Faster exports\n🚧 Dark mode (next week)\n${joiners ? `${WOMAN_TECHNOLOGIST} Thanks to the platform team` : '🙏 Thanks everyone'}`)}\n`
        : '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-i18n-emoji-${pad2(i + 1)}`,
        note: `A message-writing skill with emoji${joiners ? ', including zero-width-joiner sequences (👩‍💻, families, flags)' : ', flags and skin tones'}`,
        name,
        skillMd: `${frontMatter(r, { name, description: `Writes ${subject.replace(/-/g, ' ')} messages with a light touch of emoji. Use when posting team updates.` })}\n${body.join('\n')}`,
      }),
    );
  }
  return out;
}

export function i18nSamples(): Sample[] {
  const r = rng('benign/i18n');
  return [...localised(r, 45), ...emoji(r, 10)];
}
