// A registry that reads like a real one, for judging search relevance: skill names in the shapes people give them
// ("PDF Form Filler", "kubernetes-debugging-patterns", "SlackNotifier", "csv_cleaner"), SKILL.md-style descriptions,
// tags, categories and heavy-tailed downloads, with deliberate distractors (a skill that only mentions another's
// words in its description, a popular skill that matches weakly, near-duplicate forks) and a few names with
// diacritics or in Chinese, Japanese and Korean. Seeded: the same size and seed always give the same registry,
// apart from the ids.
import { slugFromName } from '@skill-registry/rules/skill-fields';
import { newId } from '../../src/lib/ids.js';
import { CATEGORIES, generator, type GeneratedSkill } from './generate.js';

export const RELEVANCE_SEED = 20260514;

export interface Verb {
  base: string;
  third: string;
  past: string;
  ing: string;
  agent: string;
}

/** How a name is written: what the query generator needs to phrase split, prefix and name-word queries. */
export type NameShape = 'title' | 'tool-led' | 'workflow' | 'imperative' | 'kebab' | 'camel' | 'snake' | 'dotted' | 'accented' | 'cjk';

/**
 * `plain`: an ordinary skill. The distractors are built against a plain skill (`of`): `mention` holds its words in
 * the description only, `popular` shares one name word and has many downloads, `fork` is a near-duplicate name.
 */
export type SkillRole = 'plain' | 'mention' | 'popular' | 'fork' | 'special';

export interface RelevanceFacets {
  shape: NameShape;
  role: SkillRole;
  /** The slug of the skill a distractor was built against. */
  of?: string;
  /** The action the skill performs; absent for the hand-written skills. */
  verb?: Verb;
  /** The things it acts on, singular, as they appear in the name and description ("pdf", "pull request"). */
  objects: string[];
  /** For a name in a CJK script: the words in it a reader would search for. */
  terms?: string[];
}

export interface RelevanceSkill extends GeneratedSkill {
  facets: RelevanceFacets;
}

// base, third person, past, -ing, agent noun
const VERB_TABLE = `
fill fills filled filling filler|extract extracts extracted extracting extractor|merge merges merged merging merger
split splits split splitting splitter|sign signs signed signing signer|annotate annotates annotated annotating annotator
compress compresses compressed compressing compressor|redact redacts redacted redacting redactor
convert converts converted converting converter|parse parses parsed parsing parser|clean cleans cleaned cleaning cleaner
validate validates validated validating validator|analyze analyzes analyzed analyzing analyzer
format formats formatted formatting formatter|reconcile reconciles reconciled reconciling reconciler
import imports imported importing importer|export exports exported exporting exporter
review reviews reviewed reviewing reviewer|write writes wrote writing writer|squash squashes squashed squashing squasher
resolve resolves resolved resolving resolver|summarize summarizes summarized summarizing summarizer
debug debugs debugged debugging debugger|deploy deploys deployed deploying deployer|scale scales scaled scaling scaler
build builds built building builder|monitor monitors monitored monitoring monitor
inspect inspects inspected inspecting inspector|generate generates generated generating generator
run runs ran running runner|fix fixes fixed fixing fixer|mock mocks mocked mocking mocker
draft drafts drafted drafting drafter|polish polishes polished polishing polisher
schedule schedules scheduled scheduling scheduler|optimize optimizes optimized optimizing optimizer
localize localizes localized localizing localizer|visualize visualizes visualized visualizing visualizer
forecast forecasts forecasted forecasting forecaster|profile profiles profiled profiling profiler
migrate migrates migrated migrating migrator|explain explains explained explaining explainer
tune tunes tuned tuning tuner|audit audits audited auditing auditor|notify notifies notified notifying notifier
post posts posted posting poster|triage triages triaged triaging triager
translate translates translated translating translator|sort sorts sorted sorting sorter
plan plans planned planning planner|prioritize prioritizes prioritized prioritizing prioritizer
estimate estimates estimated estimating estimator|track tracks tracked tracking tracker
scan scans scanned scanning scanner|rotate rotates rotated rotating rotator|detect detects detected detecting detector
harden hardens hardened hardening hardener|edit edits edited editing editor
proofread proofreads proofread proofreading proofreader|outline outlines outlined outlining outliner
design designs designed designing designer|resize resizes resized resizing resizer
critique critiques critiqued critiquing critic|refactor refactors refactored refactoring refactorer
document documents documented documenting documenter|test tests tested testing tester
provision provisions provisioned provisioning provisioner|categorize categorizes categorized categorizing categorizer
search searches searched searching searcher|compare compares compared comparing comparer
grade grades graded grading grader|tutor tutors tutored tutoring tutor
transcribe transcribes transcribed transcribing transcriber|trim trims trimmed trimming trimmer
caption captions captioned captioning captioner|crop crops cropped cropping cropper
redline redlines redlined redlining redliner|route routes routed routing router
escalate escalates escalated escalating escalator|qualify qualifies qualified qualifying qualifier
enrich enriches enriched enriching enricher|score scores scored scoring scorer|train trains trained training trainer
evaluate evaluates evaluated evaluating evaluator|label labels labeled labeling labeler
benchmark benchmarks benchmarked benchmarking benchmarker
investigate investigates investigated investigating investigator|organize organizes organized organizing organizer
book books booked booking booker|lint lints linted linting linter|automate automates automated automating automator
upgrade upgrades upgraded upgrading upgrader|publish publishes published publishing publisher
bisect bisects bisected bisecting bisector|release releases released releasing releaser
rebase rebases rebased rebasing rebaser|crawl crawls crawled crawling crawler|scrape scrapes scraped scraping scraper
index indexes indexed indexing indexer|log logs logged logging logger|screen screens screened screening screener
troubleshoot troubleshoots troubleshot troubleshooting troubleshooter|suggest suggests suggested suggesting suggester
aggregate aggregates aggregated aggregating aggregator|alert alerts alerted alerting alerter`;

export const VERBS: ReadonlyMap<string, Verb> = new Map(
  VERB_TABLE.split(/[|\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [base, third, past, ing, agent] = entry.split(' ') as [string, string, string, string, string];
      return [base, { base, third, past, ing, agent }];
    }),
);

interface Topic {
  category: string;
  tags: string[];
  verbs: string[];
  /** Words put in front of an object to say which kind ("pdf" form, "slack" message). */
  modifiers: string[];
  /** Singular, or "singular|plural" where the plural is not the regular one. */
  objects: string[];
  /** Products and libraries, as their makers write them. */
  tools: string[];
  /** Specific things a description goes into: what makes one skill's description unlike another's. */
  details: string[];
}

const TOPICS: Topic[] = [
  {
    category: 'documents',
    modifiers: ['pdf', 'scanned', 'multi-page'],
    tags: ['pdf', 'documents', 'ocr', 'forms'],
    verbs: ['fill', 'extract', 'merge', 'split', 'sign', 'annotate', 'compress', 'redact', 'convert', 'parse'],
    objects: ['pdf', 'form', 'invoice', 'contract', 'scanned page', 'receipt', 'brochure', 'report', 'certificate', 'bank statement'],
    tools: ['pdfplumber', 'qpdf', 'Ghostscript', 'Poppler', 'Tesseract', 'PyMuPDF'],
    details: [
      'acroform fields',
      'checkboxes',
      'digital signatures',
      'bookmarks',
      'watermarks',
      'page ranges',
      'embedded fonts',
      'table cells',
      'footnotes',
      'radio buttons',
      'hyperlinks',
      'page rotation',
      'encrypted files',
      'document metadata',
      'handwritten notes',
      'duplex scans',
    ],
  },
  {
    category: 'data',
    modifiers: ['excel', 'csv', 'quarterly'],
    tags: ['excel', 'csv', 'spreadsheets', 'data'],
    verbs: ['clean', 'merge', 'validate', 'analyze', 'format', 'reconcile', 'import', 'export'],
    objects: ['spreadsheet', 'workbook', 'pivot table', 'csv file', 'xlsx file', 'formula', 'ledger', 'budget sheet', 'sales sheet'],
    tools: ['Excel', 'Google Sheets', 'LibreOffice Calc', 'openpyxl', 'Airtable'],
    details: [
      'vlookup formulas',
      'dropdown lists',
      'merged cells',
      'duplicate rows',
      'currency columns',
      'date parsing',
      'frozen headers',
      'named ranges',
      'conditional highlights',
      'hidden sheets',
      'circular references',
      'trailing whitespace',
      'thousands separators',
      'cross-sheet lookups',
    ],
  },
  {
    category: 'development',
    modifiers: ['github', 'gitlab', 'monorepo'],
    tags: ['git', 'github', 'code-review'],
    verbs: ['review', 'write', 'squash', 'resolve', 'bisect', 'release', 'summarize', 'rebase'],
    objects: [
      'commit',
      'branch',
      'repository|repositories',
      'changelog',
      'pull request',
      'merge conflict',
      'release note',
      'git history|git history',
    ],
    tools: ['Git', 'GitHub', 'GitLab', 'Gitea', 'pre-commit'],
    details: [
      'conventional commits',
      'signed tags',
      'semantic versioning',
      'monorepos',
      'submodules',
      'cherry picks',
      'reflog recovery',
      'worktrees',
      'blame annotations',
      'commit trailers',
      'co-authors',
      'protected branches',
      'stale branches',
      'fixup commits',
    ],
  },
  {
    category: 'devops',
    modifiers: ['kubernetes', 'staging', 'production'],
    tags: ['kubernetes', 'k8s', 'devops', 'helm'],
    verbs: ['debug', 'deploy', 'scale', 'inspect', 'monitor', 'troubleshoot'],
    objects: ['kubernetes|kubernetes', 'pod', 'cluster', 'deployment', 'helm chart', 'manifest', 'namespace', 'ingress|ingresses'],
    tools: ['kubectl', 'Helm', 'Kustomize', 'k9s', 'Argo CD', 'Lens'],
    details: [
      'crashloop backoff',
      'liveness probes',
      'readiness probes',
      'resource limits',
      'node affinity',
      'disruption budgets',
      'rolling updates',
      'config maps',
      'service accounts',
      'persistent volumes',
      'image pull errors',
      'horizontal autoscaling',
      'taints and tolerations',
      'sidecar containers',
    ],
  },
  {
    category: 'devops',
    modifiers: ['docker', 'production', 'python'],
    tags: ['docker', 'containers', 'devops'],
    verbs: ['build', 'debug', 'optimize', 'scan', 'deploy', 'lint'],
    objects: ['dockerfile', 'container image', 'container', 'compose file', 'image layer', 'base image'],
    tools: ['Docker', 'Podman', 'Buildx', 'Dive', 'hadolint', 'Trivy'],
    details: [
      'multi-stage builds',
      'layer caching',
      'distroless images',
      'healthchecks',
      'build arguments',
      'non-root users',
      'image size',
      'bind mounts',
      'entrypoint scripts',
      'registry credentials',
      'platform targets',
      'dangling volumes',
    ],
  },
  {
    category: 'testing',
    modifiers: ['python', 'javascript', 'browser'],
    tags: ['testing', 'qa', 'ci'],
    verbs: ['generate', 'run', 'fix', 'mock', 'write', 'review'],
    objects: ['unit test', 'test suite', 'fixture', 'flaky test', 'snapshot', 'integration test', 'end-to-end test', 'mock server'],
    tools: ['Jest', 'pytest', 'Vitest', 'Playwright', 'Cypress', 'JUnit', 'Hypothesis'],
    details: [
      'mutation testing',
      'property-based checks',
      'golden files',
      'parametrized cases',
      'retries',
      'timeouts',
      'coverage thresholds',
      'test doubles',
      'table-driven cases',
      'race conditions',
      'seeded randomness',
      'headless browsers',
      'visual regressions',
    ],
  },
  {
    category: 'marketing',
    modifiers: ['seo', 'b2b', 'launch'],
    tags: ['marketing', 'copywriting', 'seo'],
    verbs: ['write', 'draft', 'polish', 'optimize', 'localize', 'schedule'],
    objects: [
      'headline',
      'tagline',
      'landing page',
      'campaign',
      'product announcement',
      'newsletter',
      'social post',
      'marketing copy|marketing copy',
    ],
    tools: ['Mailchimp', 'HubSpot', 'Buffer', 'Canva', 'Google Ads', 'LinkedIn'],
    details: [
      'brand voice',
      'call-to-action buttons',
      'audience personas',
      'split tests',
      'conversion rates',
      'hook lines',
      'value propositions',
      'launch timing',
      'character limits',
      'emoji usage',
      'keyword density',
      'subject lines',
      'preheader text',
      'seasonal promotions',
    ],
  },
  {
    category: 'analytics',
    modifiers: ['sales', 'marketing', 'product'],
    tags: ['data', 'analytics', 'python', 'charts'],
    verbs: ['analyze', 'visualize', 'clean', 'summarize', 'forecast', 'profile', 'aggregate'],
    objects: ['dataset', 'dataframe', 'dashboard', 'metric', 'cohort', 'survey result', 'time series|time series', 'kpi'],
    tools: ['pandas', 'NumPy', 'Matplotlib', 'seaborn', 'DuckDB', 'Polars', 'Jupyter', 'Tableau'],
    details: [
      'parquet files',
      'histograms',
      'correlation matrices',
      'outliers',
      'seasonality',
      'missing values',
      'confidence intervals',
      'rolling averages',
      'funnel drop-off',
      'retention curves',
      'box plots',
      'z-scores',
      'weighted averages',
      'sampling bias',
    ],
  },
  {
    category: 'database',
    modifiers: ['postgres', 'mysql', 'sqlite'],
    tags: ['sql', 'postgres', 'database'],
    verbs: ['optimize', 'migrate', 'explain', 'tune', 'design', 'audit', 'index'],
    objects: ['sql query|sql queries', 'database schema', 'migration', 'table', 'stored procedure', 'query plan', 'database'],
    tools: ['PostgreSQL', 'MySQL', 'SQLite', 'Prisma', 'Flyway', 'Liquibase'],
    details: [
      'deadlocks',
      'vacuum settings',
      'table partitioning',
      'foreign keys',
      'normalization',
      'slow query logs',
      'connection pools',
      'isolation levels',
      'covering indexes',
      'zero-downtime changes',
      'rollback scripts',
      'lock contention',
      'sequential scans',
    ],
  },
  {
    category: 'communication',
    modifiers: ['slack', 'teams', 'discord'],
    tags: ['slack', 'chat', 'notifications'],
    verbs: ['notify', 'summarize', 'draft', 'post', 'schedule', 'triage', 'translate'],
    objects: ['slack message', 'channel', 'thread', 'notification', 'standup update', 'team digest', 'announcement', 'discord message'],
    tools: ['Slack', 'Microsoft Teams', 'Discord', 'Mattermost', 'Zulip'],
    details: [
      'incoming webhooks',
      'emoji reactions',
      'user mentions',
      'unread threads',
      'quiet hours',
      'block kit layouts',
      'channel archives',
      'pinned messages',
      'reminders',
      'link previews',
      'shared channels',
    ],
  },
  {
    category: 'communication',
    modifiers: ['gmail', 'outlook', 'sales'],
    tags: ['email', 'inbox', 'writing'],
    verbs: ['draft', 'triage', 'sort', 'summarize', 'write', 'schedule'],
    objects: ['email', 'inbox|inboxes', 'reply|replies', 'follow-up email', 'email template', 'cold email', 'mailing list'],
    tools: ['Gmail', 'Outlook', 'IMAP', 'Fastmail', 'SendGrid'],
    details: [
      'labels',
      'inbox filters',
      'unsubscribe links',
      'drip sequences',
      'read receipts',
      'auto-replies',
      'priority senders',
      'attachments',
      'signature blocks',
      'spam scores',
      'bounce handling',
    ],
  },
  {
    category: 'productivity',
    modifiers: ['jira', 'linear', 'quarterly'],
    tags: ['planning', 'jira', 'agile', 'project-management'],
    verbs: ['plan', 'triage', 'prioritize', 'estimate', 'track', 'organize'],
    objects: ['issue', 'ticket', 'sprint', 'roadmap', 'milestone', 'backlog', 'epic', 'user story|user stories', 'retrospective'],
    tools: ['Jira', 'Linear', 'Trello', 'Asana', 'GitHub Projects', 'ClickUp'],
    details: [
      'story points',
      'velocity charts',
      'dependencies',
      'okrs',
      'acceptance criteria',
      'kanban boards',
      'burndown charts',
      'blockers',
      'swimlanes',
      'due dates',
      'capacity planning',
      'release trains',
      'stakeholder updates',
    ],
  },
  {
    category: 'security',
    modifiers: ['npm', 'docker', 'cloud'],
    tags: ['security', 'secrets', 'compliance'],
    verbs: ['scan', 'audit', 'rotate', 'detect', 'harden', 'review'],
    objects: [
      'vulnerability|vulnerabilities',
      'secret',
      'dependency|dependencies',
      'access policy|access policies',
      'tls certificate',
      'api token',
      'login flow',
    ],
    tools: ['Semgrep', 'Snyk', 'OWASP ZAP', 'gitleaks', 'Vault', 'osv-scanner'],
    details: [
      'cve advisories',
      'sast rules',
      'sbom files',
      'jwt claims',
      'rbac roles',
      'phishing indicators',
      'leaked credentials',
      'least privilege',
      'cipher suites',
      'csrf tokens',
      'dependency pinning',
      'supply chain attacks',
      'session fixation',
    ],
  },
  {
    category: 'writing',
    modifiers: ['academic', 'technical', 'persuasive'],
    tags: ['writing', 'editing', 'content'],
    verbs: ['write', 'edit', 'proofread', 'outline', 'summarize', 'draft', 'polish'],
    objects: ['essay', 'article', 'blog post', 'short story|short stories', 'chapter', 'press release', 'cover letter', 'book review'],
    tools: ['Google Docs', 'Hemingway', 'Scrivener', 'Markdown', 'Ulysses'],
    details: [
      'passive voice',
      'readability scores',
      'apa citations',
      'mla style',
      'plagiarism checks',
      'tone shifts',
      'topic sentences',
      'word counts',
      'transition phrases',
      'active verbs',
      'chapter pacing',
      'dialogue tags',
    ],
  },
  {
    category: 'design',
    modifiers: ['brand', 'mobile', 'event'],
    tags: ['design', 'figma', 'ui'],
    verbs: ['design', 'generate', 'export', 'resize', 'critique'],
    objects: ['logo', 'icon', 'color palette', 'mockup', 'wireframe', 'banner', 'poster', 'illustration', 'slide deck', 'brand kit'],
    tools: ['Figma', 'Sketch', 'Inkscape', 'Illustrator', 'Penpot'],
    details: [
      'kerning',
      'contrast ratios',
      'typography scales',
      'grid systems',
      'svg exports',
      'gradients',
      'spacing tokens',
      'dark mode variants',
      'icon sets',
      'print bleed',
      'vector paths',
      'auto layout',
    ],
  },
  {
    category: 'web',
    modifiers: ['react', 'vue', 'svelte'],
    tags: ['frontend', 'react', 'web', 'css'],
    verbs: ['build', 'refactor', 'test', 'optimize', 'migrate', 'debug'],
    objects: ['react component', 'web page', 'web form', 'route', 'stylesheet', 'bundle', 'design system'],
    tools: ['React', 'Vue', 'Svelte', 'Tailwind', 'Next.js', 'Vite', 'Astro', 'Storybook'],
    details: [
      'lighthouse audits',
      'hydration errors',
      'aria labels',
      'code splitting',
      'server components',
      'css variables',
      'responsive breakpoints',
      'lazy loading',
      'web vitals',
      'keyboard navigation',
      'bundle size',
      'focus traps',
    ],
  },
  {
    category: 'development',
    modifiers: ['rest', 'graphql', 'internal'],
    tags: ['api', 'openapi', 'rest', 'graphql'],
    verbs: ['design', 'document', 'test', 'mock', 'generate', 'validate'],
    objects: ['api endpoint', 'openapi spec', 'api client', 'webhook', 'graphql schema', 'rest api', 'sdk', 'api request'],
    tools: ['OpenAPI', 'Postman', 'GraphQL', 'gRPC', 'Insomnia', 'Swagger UI'],
    details: [
      'pagination',
      'rate limits',
      'oauth scopes',
      'idempotency keys',
      'error envelopes',
      'versioned paths',
      'request validation',
      'retry headers',
      'cursor tokens',
      'breaking changes',
      'example payloads',
      'contract tests',
    ],
  },
  {
    category: 'cloud',
    modifiers: ['aws', 'azure', 'gcp'],
    tags: ['aws', 'cloud', 'terraform', 'infrastructure'],
    verbs: ['provision', 'deploy', 'audit', 'estimate', 'migrate', 'optimize'],
    objects: ['cloud bill', 's3 bucket', 'lambda function', 'terraform module', 'vpc', 'cloud account', 'serverless app', 'instance'],
    tools: ['AWS', 'Google Cloud', 'Azure', 'Terraform', 'Pulumi', 'CloudFormation', 'OpenTofu'],
    details: [
      'iam roles',
      'reserved instances',
      'cost anomalies',
      'drift detection',
      'state files',
      'security groups',
      'tagging policies',
      'spot capacity',
      'egress charges',
      'landing zones',
      'region failover',
      'savings plans',
    ],
  },
  {
    category: 'finance',
    modifiers: ['monthly', 'business', 'freelance'],
    tags: ['finance', 'accounting', 'bookkeeping'],
    verbs: ['categorize', 'reconcile', 'forecast', 'track', 'audit', 'summarize'],
    objects: ['expense', 'receipt', 'budget', 'invoice', 'bank statement', 'payroll run', 'tax return', 'cash flow|cash flow', 'ledger'],
    tools: ['QuickBooks', 'Xero', 'Stripe', 'Plaid', 'Wave'],
    details: [
      'vat rates',
      'accruals',
      'depreciation schedules',
      'chart of accounts',
      'recurring charges',
      'currency conversion',
      'quarterly estimates',
      'late fees',
      'duplicate payments',
      'month-end close',
      'journal entries',
      'petty cash',
    ],
  },
  {
    category: 'research',
    modifiers: ['medical', 'scientific', 'economics'],
    tags: ['research', 'papers', 'academic'],
    verbs: ['search', 'summarize', 'compare', 'review', 'extract'],
    objects: ['research paper', 'citation', 'literature review', 'abstract', 'clinical study|clinical studies', 'preprint', 'patent'],
    tools: ['arXiv', 'PubMed', 'Semantic Scholar', 'Zotero', 'BibTeX', 'Google Scholar'],
    details: [
      'doi lookups',
      'meta-analyses',
      'effect sizes',
      'sample sizes',
      'reference lists',
      'peer review',
      'systematic reviews',
      'inclusion criteria',
      'methodology sections',
      'related work',
      'citation graphs',
    ],
  },
  {
    category: 'education',
    modifiers: ['math', 'science', 'history'],
    tags: ['education', 'learning', 'teaching'],
    verbs: ['plan', 'grade', 'explain', 'tutor', 'generate'],
    objects: ['lesson plan', 'quiz|quizzes', 'flashcard', 'course', 'syllabus|syllabi', 'exercise', 'rubric', 'lecture'],
    tools: ['Anki', 'Moodle', 'Canvas LMS', 'Google Classroom', 'Quizlet'],
    details: [
      'spaced repetition',
      'learning objectives',
      'bloom levels',
      'worksheets',
      'reading levels',
      'answer keys',
      'mastery tracking',
      'homework feedback',
      'multiple choice',
      'exam prep',
      'group projects',
    ],
  },
  {
    category: 'media',
    modifiers: ['youtube', 'podcast', 'zoom'],
    tags: ['video', 'audio', 'podcast', 'transcription'],
    verbs: ['transcribe', 'edit', 'trim', 'caption', 'summarize', 'compress'],
    objects: ['video', 'podcast', 'transcript', 'subtitle', 'clip', 'episode', 'audio file', 'voice memo', 'webinar recording'],
    tools: ['FFmpeg', 'Whisper', 'Audacity', 'DaVinci Resolve', 'OBS'],
    details: [
      'srt files',
      'timestamps',
      'loudness normalization',
      'chapter markers',
      'speaker labels',
      'silence removal',
      'frame rates',
      'burned-in captions',
      'show notes',
      'b-roll',
      'noise reduction',
    ],
  },
  {
    category: 'vision',
    modifiers: ['ecommerce', 'instagram', 'real-estate'],
    tags: ['images', 'photos', 'media'],
    verbs: ['resize', 'crop', 'compress', 'annotate', 'generate', 'convert'],
    objects: ['image', 'photo', 'screenshot', 'diagram', 'thumbnail', 'product photo', 'background', 'scanned photo'],
    tools: ['ImageMagick', 'Pillow', 'Sharp', 'GIMP', 'Photoshop'],
    details: [
      'png files',
      'jpeg quality',
      'webp output',
      'exif metadata',
      'alt text',
      'upscaling',
      'transparent backgrounds',
      'aspect ratios',
      'color profiles',
      'batch renaming',
      'face blurring',
    ],
  },
  {
    category: 'legal',
    modifiers: ['saas', 'vendor', 'freelance'],
    tags: ['legal', 'contracts', 'compliance'],
    verbs: ['review', 'draft', 'compare', 'redline', 'summarize'],
    objects: [
      'contract',
      'clause',
      'nda',
      'privacy policy|privacy policies',
      'terms of service|terms of service',
      'lease agreement',
      'employment agreement',
    ],
    tools: ['DocuSign', 'Ironclad', 'Clio'],
    details: [
      'indemnity',
      'liability caps',
      'gdpr obligations',
      'governing law',
      'termination rights',
      'non-compete terms',
      'renewal dates',
      'data processing addenda',
      'force majeure',
      'payment terms',
      'assignment clauses',
    ],
  },
  {
    category: 'support',
    modifiers: ['saas', 'ecommerce', 'billing'],
    tags: ['support', 'customer-service', 'helpdesk'],
    verbs: ['triage', 'route', 'escalate', 'summarize', 'draft', 'categorize'],
    objects: ['support ticket', 'customer reply|customer replies', 'help article', 'refund request', 'complaint', 'chat transcript', 'faq'],
    tools: ['Zendesk', 'Intercom', 'Freshdesk', 'Help Scout', 'Front'],
    details: [
      'sla timers',
      'csat scores',
      'sentiment',
      'canned responses',
      'priority queues',
      'first response times',
      'churn risk',
      'tone guidelines',
      'known issues',
      'handoff notes',
      'duplicate tickets',
    ],
  },
  {
    category: 'crm',
    modifiers: ['b2b', 'enterprise', 'saas'],
    tags: ['sales', 'crm', 'outreach'],
    verbs: ['qualify', 'enrich', 'score', 'forecast', 'draft', 'track'],
    objects: ['lead', 'deal', 'pipeline', 'sales proposal', 'prospect', 'quote', 'account plan', 'call note'],
    tools: ['Salesforce', 'HubSpot CRM', 'Pipedrive', 'Apollo', 'Gong'],
    details: [
      'cold outreach',
      'ideal customer profiles',
      'churn signals',
      'win rates',
      'discount approvals',
      'territory plans',
      'buying committees',
      'renewal forecasts',
      'intent data',
      'objection handling',
    ],
  },
  {
    category: 'ml',
    modifiers: ['llm', 'pytorch', 'local'],
    tags: ['ml', 'ai', 'llm', 'python'],
    verbs: ['train', 'evaluate', 'tune', 'label', 'benchmark', 'deploy'],
    objects: ['model', 'prompt', 'training dataset', 'embedding', 'classifier', 'evaluation set', 'agent', 'vector index|vector indexes'],
    tools: ['PyTorch', 'Hugging Face', 'scikit-learn', 'LangChain', 'MLflow', 'Ollama'],
    details: [
      'lora adapters',
      'retrieval augmented generation',
      'vector search',
      'tokenizers',
      'hallucination checks',
      'confusion matrices',
      'learning rates',
      'early stopping',
      'prompt templates',
      'few-shot examples',
      'eval harnesses',
      'quantization',
      'data leakage',
    ],
  },
  {
    category: 'ops',
    modifiers: ['production', 'kubernetes', 'api'],
    tags: ['observability', 'monitoring', 'sre', 'logging'],
    verbs: ['monitor', 'investigate', 'triage', 'summarize', 'alert'],
    objects: ['log|logs', 'alert', 'incident', 'metric', 'dashboard', 'trace', 'runbook', 'postmortem', 'outage', 'error spike'],
    tools: ['Grafana', 'Prometheus', 'PagerDuty', 'OpenTelemetry', 'Datadog', 'Sentry', 'Loki'],
    details: [
      'slo burn rates',
      'on-call rotations',
      'error budgets',
      'latency percentiles',
      'stack traces',
      'noisy alerts',
      'root causes',
      'status pages',
      'timeline reconstruction',
      'log sampling',
      'cardinality limits',
    ],
  },
  {
    category: 'productivity',
    modifiers: ['obsidian', 'notion', 'weekly'],
    tags: ['notes', 'productivity', 'calendar'],
    verbs: ['organize', 'schedule', 'summarize', 'plan', 'track', 'write'],
    objects: ['note', 'meeting', 'agenda', 'calendar', 'task', 'todo list', 'journal', 'meeting minutes|meeting minutes', 'daily plan'],
    tools: ['Obsidian', 'Notion', 'Logseq', 'Google Calendar', 'Todoist', 'Apple Notes'],
    details: [
      'backlinks',
      'note templates',
      'zettelkasten',
      'pomodoro sessions',
      'weekly reviews',
      'time blocking',
      'recurring events',
      'action items',
      'daily notes',
      'inbox zero',
      'focus hours',
    ],
  },
  {
    category: 'travel',
    modifiers: ['europe', 'budget', 'family'],
    tags: ['travel', 'trips', 'maps'],
    verbs: ['plan', 'book', 'compare', 'track'],
    objects: ['itinerary|itineraries', 'flight', 'hotel', 'trip', 'visa application', 'packing list', 'road trip'],
    tools: ['Google Maps', 'Skyscanner', 'Airbnb', 'TripIt', 'Rome2Rio'],
    details: [
      'layovers',
      'jet lag',
      'loyalty points',
      'travel insurance',
      'baggage rules',
      'day trips',
      'public transport',
      'currency tips',
      'time zones',
      'rental cars',
      'border crossings',
    ],
  },
  {
    category: 'health',
    modifiers: ['vegan', 'marathon', 'keto'],
    tags: ['fitness', 'health', 'nutrition'],
    verbs: ['plan', 'track', 'log', 'suggest'],
    objects: ['workout', 'meal plan', 'recipe', 'habit', 'sleep log', 'nutrition label', 'running plan', 'grocery list'],
    tools: ['Strava', 'MyFitnessPal', 'Apple Health', 'Garmin', 'Fitbit'],
    details: [
      'macros',
      'calories',
      'protein targets',
      'interval training',
      'rest days',
      'heart rate zones',
      'food allergies',
      'portion sizes',
      'hydration',
      'progressive overload',
      'mobility drills',
    ],
  },
  {
    category: 'development',
    modifiers: ['bash', 'zsh', 'linux'],
    tags: ['shell', 'bash', 'cli', 'linux'],
    verbs: ['write', 'explain', 'debug', 'lint', 'automate'],
    objects: ['shell script', 'bash script', 'command', 'alias|aliases', 'dotfile', 'cron job', 'makefile', 'terminal session'],
    tools: ['Bash', 'zsh', 'ShellCheck', 'fish', 'tmux', 'GNU Make'],
    details: [
      'exit codes',
      'pipes',
      'awk one-liners',
      'sed expressions',
      'posix compatibility',
      'heredocs',
      'environment variables',
      'signal traps',
      'path handling',
      'quoting rules',
      'job control',
    ],
  },
  {
    category: 'development',
    modifiers: ['python', 'typescript', 'rust', 'go'],
    tags: ['python', 'typescript', 'rust', 'golang', 'refactoring'],
    verbs: ['refactor', 'document', 'upgrade', 'profile', 'review', 'debug'],
    objects: [
      'python module',
      'typescript type',
      'rust crate',
      'go package',
      'function',
      'legacy code|legacy code',
      'error message',
      'codebase',
    ],
    tools: ['mypy', 'Clippy', 'ESLint', 'Ruff', 'tsc', 'gopls', 'Prettier'],
    details: [
      'borrow checker errors',
      'generic types',
      'async functions',
      'type hints',
      'dead code',
      'circular imports',
      'memory leaks',
      'hot paths',
      'flame graphs',
      'deprecation warnings',
      'strict mode',
      'null checks',
    ],
  },
  {
    category: 'devops',
    modifiers: ['github', 'npm', 'docker'],
    tags: ['ci', 'github-actions', 'automation'],
    verbs: ['build', 'release', 'publish', 'automate', 'debug', 'optimize'],
    objects: ['ci pipeline', 'github workflow', 'build', 'release', 'package', 'artifact', 'deploy job'],
    tools: ['GitHub Actions', 'GitLab CI', 'CircleCI', 'Jenkins', 'Buildkite', 'npm'],
    details: [
      'matrix builds',
      'caching keys',
      'flaky jobs',
      'secrets masking',
      'release tags',
      'build times',
      'parallel steps',
      'self-hosted runners',
      'provenance attestations',
      'manual approvals',
    ],
  },
  {
    category: 'web',
    modifiers: ['ecommerce', 'real-estate', 'competitor'],
    tags: ['scraping', 'web', 'automation'],
    verbs: ['scrape', 'crawl', 'extract', 'monitor', 'parse'],
    objects: ['web page', 'website', 'product listing', 'price', 'sitemap', 'news article', 'job posting'],
    tools: ['Puppeteer', 'Playwright', 'Scrapy', 'Beautiful Soup', 'Cheerio'],
    details: [
      'robots rules',
      'pagination links',
      'infinite scroll',
      'crawl delays',
      'html tables',
      'structured data',
      'captcha pages',
      'cookie banners',
      'user agents',
      'proxy rotation',
      'change detection',
    ],
  },
  {
    category: 'nlp',
    modifiers: ['spanish', 'japanese', 'german'],
    tags: ['translation', 'i18n', 'localization'],
    verbs: ['translate', 'localize', 'proofread', 'review'],
    objects: ['translation', 'locale file', 'ui string', 'subtitle', 'product description', 'documentation page', 'glossary|glossaries'],
    tools: ['DeepL', 'Crowdin', 'Lokalise', 'gettext', 'ICU MessageFormat'],
    details: [
      'plural rules',
      'placeholder variables',
      'right-to-left scripts',
      'terminology consistency',
      'machine translation',
      'style guides',
      'string length limits',
      'context comments',
      'date formats',
      'gender agreement',
    ],
  },
  {
    category: 'writing',
    modifiers: ['python', 'internal', 'open-source'],
    tags: ['docs', 'markdown', 'documentation'],
    verbs: ['write', 'document', 'generate', 'publish', 'review'],
    objects: ['readme', 'api documentation', 'architecture decision record', 'runbook', 'tutorial', 'wiki page', 'docstring'],
    tools: ['MkDocs', 'Docusaurus', 'Sphinx', 'Mermaid', 'Confluence'],
    details: [
      'code samples',
      'sequence diagrams',
      'table of contents',
      'broken links',
      'versioned docs',
      'search indexing',
      'frontmatter',
      'admonitions',
      'prose linting',
      'screenshots',
    ],
  },
  {
    category: 'hr',
    modifiers: ['engineering', 'remote', 'sales'],
    tags: ['hiring', 'hr', 'recruiting'],
    verbs: ['write', 'screen', 'schedule', 'draft', 'plan'],
    objects: ['job description', 'candidate', 'interview', 'offer letter', 'onboarding plan', 'performance review', 'team survey'],
    tools: ['Greenhouse', 'Lever', 'Workday', 'BambooHR'],
    details: [
      'interview scorecards',
      'salary bands',
      'inclusive language',
      'structured interviews',
      'probation periods',
      'skills matrices',
      'reference checks',
      'one-on-one agendas',
      'exit interviews',
    ],
  },
];

const OBJECT_SPECS = new Map(TOPICS.flatMap((topic) => topic.objects.map((spec) => [spec.split('|')[0]!, spec] as const)));

/** Every spelling of every action and object, for the generator's stem variants ("plans" for "planning"). */
export const WORD_FORMS: readonly string[] = [
  ...new Set([
    ...[...VERBS.values()].flatMap((v) => [v.base, v.third, v.past, v.ing, v.agent]),
    ...[...OBJECT_SPECS.keys()].flatMap((o) => [o.split(' ').at(-1)!, plural(o).split(' ').at(-1)!]),
  ]),
];

for (const topic of TOPICS) {
  if (!CATEGORIES.includes(topic.category)) throw new Error(`unknown category ${topic.category}`);
  for (const verb of topic.verbs) if (!VERBS.has(verb)) throw new Error(`verb ${verb} is missing from the verb table`);
}

/** Who a skill is for, and what it leaves behind: words shared across topics, so descriptions differ in more than topic. */
const AUDIENCES = [
  'small teams',
  'solo founders',
  'on-call engineers',
  'students',
  'agencies',
  'open source maintainers',
  'data teams',
  'support leads',
  'freelancers',
  'product managers',
  'researchers',
  'finance teams',
  'recruiters',
  'designers',
  'nonprofits',
  'consultants',
];
const OUTPUTS = [
  'Returns a markdown summary',
  'Outputs JSON for other tools',
  'Writes the result as a checklist',
  'Produces a diff for review',
  'Leaves a short report in the chat',
  'Saves a reusable template',
];
const WORKFLOW_NOUNS = ['Workflow', 'Playbook', 'Guide', 'Assistant', 'Checklist', 'Skill'];
const KEBAB_SUFFIXES = ['patterns', 'guide', 'toolkit', 'playbook', 'recipes', 'checklist', 'helper', 'best-practices'];
const CAMEL_SUFFIXES = ['Tools', 'Kit', 'Helper', 'Bot'];
const POPULAR_NAMES = ['Toolkit', 'Suite', 'Power Pack', 'Essentials', 'Studio', 'Hub', 'All-in-One'];
const FORK_SUFFIXES = ['Pro', 'Lite', 'Plus', 'Next', 'Classic'];
const GENERAL_TAGS = ['automation', 'productivity', 'ai', 'llm', 'cli', 'mcp', 'agents'];

/** Written in capitals in a display name. */
const ACRONYMS = new Set(['pdf', 'csv', 'sql', 'api', 'seo', 'nda', 'faq', 'kpi', 'xlsx', 'vpc', 'sdk', 'ci', 's3', 'ui', 'okr', 'tls']);

/** The plural of an object as the vocabulary writes it ("queries", "meeting minutes"); `object` may be singular. */
export function plural(object: string): string {
  const spec = OBJECT_SPECS.get(object) ?? object;
  return regularOrGiven(spec);
}

function regularOrGiven(object: string): string {
  const [singular, irregular] = object.split('|') as [string, string | undefined];
  if (irregular !== undefined) return irregular;
  if (/(s|x|ch|sh)$/.test(singular)) return `${singular}es`;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

const singular = (object: string): string => object.split('|')[0]!;
const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
/** Words whose makers capitalise them their own way. */
const SPELLINGS = new Map([
  ['graphql', 'GraphQL'],
  ['github', 'GitHub'],
  ['gitlab', 'GitLab'],
  ['youtube', 'YouTube'],
  ['pytorch', 'PyTorch'],
  ['typescript', 'TypeScript'],
  ['javascript', 'JavaScript'],
  ['postgres', 'Postgres'],
  ['mysql', 'MySQL'],
  ['sqlite', 'SQLite'],
  ['llm', 'LLM'],
  ['b2b', 'B2B'],
  ['saas', 'SaaS'],
  ['gcp', 'GCP'],
  ['aws', 'AWS'],
  ['npm', 'npm'],
]);

function titleWord(word: string): string {
  const spelled = SPELLINGS.get(word);
  if (spelled !== undefined) return spelled;
  if (ACRONYMS.has(word)) return word.toUpperCase();
  // "PDFs", "APIs": an acronym's plural keeps a lower-case s.
  if (word.endsWith('s') && ACRONYMS.has(word.slice(0, -1))) return `${word.slice(0, -1).toUpperCase()}s`;
  return capital(word);
}
const title = (phrase: string): string =>
  phrase
    .split(/([ -])/)
    .map(titleWord)
    .join('');
const pascal = (phrase: string): string =>
  phrase
    .split(/[^a-z0-9]+/i)
    .map((w) => capital(w.toLowerCase()))
    .join('');
const kebab = (phrase: string): string => slugFromName(phrase);

type Random = () => number;

const pickFrom =
  (rnd: Random) =>
  <T>(list: readonly T[]): T =>
    list[Math.floor(rnd() * list.length)]!;

/** `count` distinct items, in the list's order. */
function sample<T>(rnd: Random, list: readonly T[], count: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, list.length)) chosen.add(Math.floor(rnd() * list.length));
  return [...chosen].sort((a, b) => a - b).map((i) => list[i]!);
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

interface Draft {
  name: string;
  shape: NameShape;
  verb: Verb;
  /** What the skill acts on, singular, with the word that says which kind first when there is one. */
  objects: string[];
  topic: Topic;
  description: string;
}

/** The object phrase in the plural: the modifier stays as it is ("pdf forms"). */
const pluralPhrase = (objects: readonly string[]): string => [...objects.slice(0, -1), plural(objects.at(-1)!)].join(' ');

/** A name in one of the shapes people give skills, from a topic, an action and what it acts on. */
function nameOf(rnd: Random, topic: Topic, verb: Verb, objects: readonly string[]): { name: string; shape: NameShape } {
  const pick = pickFrom(rnd);
  const phrase = objects.join(' ');
  const r = rnd();
  if (r < 0.25) return { name: `${objects.map(title).join(' ')} ${capital(verb.agent)}`, shape: 'title' };
  if (r < 0.35) return { name: `${pick(topic.tools)} ${title(objects.at(-1)!)} ${capital(verb.agent)}`, shape: 'tool-led' };
  if (r < 0.47) return { name: `${objects.map(title).join(' ')} ${capital(verb.ing)} ${pick(WORKFLOW_NOUNS)}`, shape: 'workflow' };
  if (r < 0.59) return { name: `${capital(verb.base)} ${title(pluralPhrase(objects))}`, shape: 'imperative' };
  if (r < 0.74) return { name: `${kebab(phrase)}-${verb.ing}-${pick(KEBAB_SUFFIXES)}`, shape: 'kebab' };
  if (r < 0.88) {
    const tail = rnd() < 0.7 ? capital(verb.agent) : pick(CAMEL_SUFFIXES);
    return { name: `${pascal(phrase)}${tail}`, shape: 'camel' };
  }
  if (r < 0.95) return { name: `${phrase.replace(/[^a-z0-9]+/g, '_')}_${verb.agent}`, shape: 'snake' };
  return { name: `${phrase.replace(/[^a-z0-9]+/g, '-')}.${verb.base}`, shape: 'dotted' };
}

/** One to three sentences, the way SKILL.md descriptions read: when to use it, what it does, what it works with. */
function descriptionOf(rnd: Random, topic: Topic, verb: Verb, objects: readonly string[]): string {
  const pick = pickFrom(rnd);
  const other = VERBS.get(pick(topic.verbs.filter((v) => v !== verb.base)))!;
  const object = objects.at(-1)!;
  const more = singular(pick(topic.objects.filter((o) => singular(o) !== object)));
  const first =
    rnd() < 0.6
      ? `Use when the user asks to ${verb.base} ${pluralPhrase(objects)} or ${other.base} ${plural(more)}.`
      : `${capital(verb.third)} ${pluralPhrase(objects)} and ${other.third} ${plural(more)}.`;
  const sentences = [first];
  const count = rnd() < 0.15 ? 1 : rnd() < 0.55 ? 2 : 3;
  const details = sample(rnd, topic.details, 2 + Math.floor(rnd() * 2));
  const middle = [
    () => `${capital(verb.third)} them with ${joinList(details)} in mind.`,
    () => `Handles ${joinList(details)}.`,
    () => `Covers ${joinList(details)}, using ${pick(topic.tools)}.`,
    () => `Checks ${joinList(details)} before ${verb.ing} anything.`,
  ];
  const last = [
    () => `Built for ${pick(AUDIENCES)}; ${pick(OUTPUTS).toLowerCase()}.`,
    () => `Works with ${joinList(sample(rnd, topic.tools, 2))}.`,
    () => `${pick(OUTPUTS)}.`,
    () => `Triggers on requests like "${verb.base} my ${objects.join(' ')}".`,
  ];
  if (count >= 2) sentences.push(pick(middle)());
  if (count >= 3) sentences.push(pick(last)());
  return sentences.join(' ');
}

function plainDraft(rnd: Random, topic = pickFrom(rnd)(TOPICS)): Draft {
  const pick = pickFrom(rnd);
  const verb = VERBS.get(pick(topic.verbs))!;
  const object = singular(pick(topic.objects));
  const modifier = pick(topic.modifiers);
  const objects = rnd() < 0.35 && modifier !== object ? [modifier, object] : [object];
  const { name, shape } = nameOf(rnd, topic, verb, objects);
  return { name, shape, verb, objects, topic, description: descriptionOf(rnd, topic, verb, objects) };
}

function tagsOf(rnd: Random, topic: Topic): string[] {
  const tags = new Set(sample(rnd, topic.tags, 1 + Math.floor(rnd() * 3)));
  if (rnd() < 0.4) tags.add(pickFrom(rnd)(GENERAL_TAGS));
  return [...tags];
}

/** Skills whose names carry diacritics: a user types them without. */
const ACCENTED: { name: string; category: string; tags: string[]; description: string }[] = [
  {
    name: 'Café Menu Designer',
    category: 'design',
    tags: ['menus', 'print'],
    description: 'Use when a restaurant or café needs a printable menu. Lays out dishes, prices and allergens in two columns.',
  },
  {
    name: 'Résumé Tailor',
    category: 'writing',
    tags: ['jobs', 'career'],
    description: 'Use when adapting a résumé to a job posting. Rewrites bullet points around the keywords the role asks for.',
  },
  {
    name: 'Crème Brûlée Recipe Scaler',
    category: 'misc',
    tags: ['cooking'],
    description: 'Scales dessert recipes up or down and converts grams to cups without losing precision.',
  },
  {
    name: 'Zürich Transit Planner',
    category: 'travel',
    tags: ['transit', 'travel'],
    description: 'Plans tram and train connections across the city, with ticket zones and night services.',
  },
  {
    name: 'São Paulo Weather Brief',
    category: 'travel',
    tags: ['weather'],
    description: 'Writes a morning briefing of rain, heat and air quality for commuters, in Portuguese or English.',
  },
  {
    name: 'Façade Pattern Explainer',
    category: 'development',
    tags: ['design-patterns', 'oop'],
    description: 'Use when the user asks how to hide a complicated subsystem behind one simple interface; shows before and after code.',
  },
  {
    name: 'Naïve Bayes Classifier Coach',
    category: 'ml',
    tags: ['ml', 'statistics'],
    description: 'Walks through training a text classifier on word counts, with Laplace smoothing and priors explained.',
  },
  {
    name: 'Piñata Party Planner',
    category: 'productivity',
    tags: ['events', 'parties'],
    description: "Plans a children's party: guest list, games, candy budget and a rain plan.",
  },
  {
    name: 'Smörgåsbord Meal Planner',
    category: 'health',
    tags: ['cooking', 'nutrition'],
    description: 'Plans a buffet for a crowd: quantities per guest, cold and warm dishes, and a shopping list.',
  },
  {
    name: 'Déjà Vu Duplicate Finder',
    category: 'data',
    tags: ['dedupe', 'data'],
    description: 'Finds near-identical records in customer lists by fuzzy comparison of names and addresses.',
  },
  {
    name: 'Château Wine Pairing Guide',
    category: 'misc',
    tags: ['wine', 'cooking'],
    description: 'Suggests a bottle for each course of a dinner, explaining acidity, tannin and sweetness.',
  },
  {
    name: 'Ångström Unit Converter',
    category: 'science',
    tags: ['units', 'physics'],
    description: 'Converts lengths and wavelengths between nanometres, picometres and the units spectroscopists use.',
  },
  {
    name: 'Crêpe Stand Inventory Tracker',
    category: 'erp',
    tags: ['inventory', 'small-business'],
    description: 'Keeps stock of flour, eggs and fillings for a street stall and warns before anything runs out.',
  },
  {
    name: 'Español Conversation Coach',
    category: 'education',
    tags: ['languages', 'spanish'],
    description: 'Practises everyday Spanish dialogues at the learner level, correcting conjugations gently.',
  },
  {
    name: 'Köln Event Finder',
    category: 'travel',
    tags: ['events', 'travel'],
    description: 'Lists concerts, markets and carnival dates for the week ahead, with opening hours.',
  },
  {
    name: 'Noël Card Writer',
    category: 'writing',
    tags: ['holidays', 'greetings'],
    description: 'Drafts warm seasonal greetings for colleagues, clients and family, in French or English.',
  },
];

/**
 * Skills named and described in Chinese, Japanese or Korean; their slugs are English, as registries require. `terms`
 * are the parts of a name a reader would search for: whole words, which CJK text does not set apart with spaces.
 */
const CJK: { name: string; terms: string[]; slug: string; category: string; tags: string[]; description: string }[] = [
  {
    name: '数据分析助手',
    terms: ['数据分析', '分析助手'],
    slug: 'data-analysis-assistant-zh',
    category: 'analytics',
    tags: ['data', 'chinese'],
    description: '用于分析表格和数据库中的数据，自动生成图表、趋势和摘要。',
  },
  {
    name: '会议纪要生成器',
    terms: ['会议纪要', '纪要'],
    slug: 'meeting-minutes-generator-zh',
    category: 'productivity',
    tags: ['meetings', 'chinese'],
    description: '根据会议录音或笔记生成结构化的会议纪要，列出决定和待办事项。',
  },
  {
    name: '代码审查助手',
    terms: ['代码审查', '审查'],
    slug: 'code-review-assistant-zh',
    category: 'development',
    tags: ['code-review', 'chinese'],
    description: '审查拉取请求中的代码，指出潜在的错误、性能问题和命名不规范之处。',
  },
  {
    name: '周报撰写工具',
    terms: ['周报', '周报撰写'],
    slug: 'weekly-report-writer-zh',
    category: 'writing',
    tags: ['reports', 'chinese'],
    description: '根据本周完成的任务和提交记录，撰写简洁的工作周报。',
  },
  {
    name: '简历优化顾问',
    terms: ['简历优化', '简历'],
    slug: 'resume-optimizer-zh',
    category: 'hr',
    tags: ['career', 'chinese'],
    description: '根据职位描述改写简历，突出相关经验和技能关键词。',
  },
  {
    name: '合同条款审阅',
    terms: ['合同条款', '条款审阅'],
    slug: 'contract-clause-review-zh',
    category: 'legal',
    tags: ['contracts', 'chinese'],
    description: '逐条审阅合同条款，标出责任限制、违约条款和付款风险。',
  },
  {
    name: '营销文案生成器',
    terms: ['营销文案', '文案'],
    slug: 'marketing-copy-generator-zh',
    category: 'marketing',
    tags: ['copywriting', 'chinese'],
    description: '为产品发布、社交媒体和电子邮件生成营销文案，支持多种语气。',
  },
  {
    name: '数据库迁移助手',
    terms: ['数据库迁移', '数据库'],
    slug: 'database-migration-assistant-zh',
    category: 'database',
    tags: ['sql', 'chinese'],
    description: '规划和执行数据库结构迁移，生成回滚脚本并检查数据一致性。',
  },
  {
    name: '发票识别工具',
    terms: ['发票识别', '发票'],
    slug: 'invoice-recognition-tool-zh',
    category: 'finance',
    tags: ['ocr', 'chinese'],
    description: '从扫描的发票图片中识别金额、税号和开票日期，导出为表格。',
  },
  {
    name: '日程安排助手',
    terms: ['日程安排', '日程'],
    slug: 'schedule-assistant-zh',
    category: 'productivity',
    tags: ['calendar', 'chinese'],
    description: '根据参会人的空闲时间安排会议，并发送日历邀请。',
  },
  {
    name: '翻译校对助手',
    terms: ['翻译校对', '校对'],
    slug: 'translation-proofreader-zh',
    category: 'nlp',
    tags: ['translation', 'chinese'],
    description: '校对中英文翻译，检查术语一致性和漏译。',
  },
  {
    name: '图片压缩工具',
    terms: ['图片压缩', '压缩'],
    slug: 'image-compressor-zh',
    category: 'vision',
    tags: ['images', 'chinese'],
    description: '批量压缩图片，保持清晰度的同时减小文件大小。',
  },
  {
    name: '日本語メール作成',
    terms: ['メール作成', '日本語メール'],
    slug: 'japanese-email-writer-ja',
    category: 'communication',
    tags: ['email', 'japanese'],
    description: 'ビジネス向けの丁寧な日本語メールを作成します。敬語の使い方も確認します。',
  },
  {
    name: '議事録まとめツール',
    terms: ['議事録', '議事録まとめ'],
    slug: 'meeting-notes-summarizer-ja',
    category: 'productivity',
    tags: ['meetings', 'japanese'],
    description: '会議の議事録を要約し、決定事項と次のアクションを整理します。',
  },
  {
    name: '한국어 맞춤법 검사기',
    terms: ['맞춤법', '맞춤법 검사기'],
    slug: 'korean-spell-checker-ko',
    category: 'writing',
    tags: ['korean', 'grammar'],
    description: '한국어 문서의 맞춤법과 띄어쓰기를 검사하고 수정 제안을 제공합니다.',
  },
  {
    name: '테스트 코드 생성기',
    terms: ['테스트 코드', '코드 생성기'],
    slug: 'test-code-generator-ko',
    category: 'testing',
    tags: ['testing', 'korean'],
    description: '함수와 클래스에 대한 단위 테스트 코드를 자동으로 생성합니다.',
  },
];

for (const skill of CJK) {
  for (const term of skill.terms) if (!skill.name.includes(term)) throw new Error(`${term} is not part of ${skill.name}`);
}
for (const skill of [...ACCENTED, ...CJK]) {
  if (!CATEGORIES.includes(skill.category)) throw new Error(`unknown category ${skill.category}`);
}

/**
 * `size` published skills. Most are ordinary; about one in five ordinary skills gets a distractor built against it;
 * the skills with diacritics and in CJK scripts come in whole (up to a quarter of a small registry).
 */
export function relevanceCorpus(size: number, seed = RELEVANCE_SEED): RelevanceSkill[] {
  const rnd = generator(seed);
  const pick = pickFrom(rnd);
  const start = Date.parse('2025-11-21T00:00:00.000Z');
  const updatedAt = () => new Date(start + Math.floor(rnd() * 365 * 86_400_000)).toISOString();
  // Heavy-tailed: most skills have a few hundred downloads, a handful have tens of thousands.
  const downloads = () => Math.floor(rnd() ** 5 * 60_000);
  const specials = [
    ...ACCENTED.map((s) => ({ ...s, slug: slugFromName(s.name), terms: undefined, shape: 'accented' as const })),
    ...CJK.map((s) => ({ ...s, shape: 'cjk' as const })),
  ];
  const kept = specials.slice(0, Math.floor(size / 4));
  const taken = new Set(kept.map((s) => s.slug));
  const rows: RelevanceSkill[] = [];
  const room = () => rows.length < size - kept.length;

  const add = (draft: Omit<RelevanceSkill, 'id' | 'slug' | 'featured' | 'updatedAt'>): RelevanceSkill | undefined => {
    const slug = slugFromName(draft.name).slice(0, 56).replace(/-+$/, '');
    if (slug === '' || taken.has(slug)) return undefined;
    taken.add(slug);
    const row: RelevanceSkill = { ...draft, id: newId(), slug, featured: rnd() < 0.01 ? 1 : 0, updatedAt: updatedAt() };
    rows.push(row);
    return row;
  };

  let misses = 0;
  while (room()) {
    const draft = plainDraft(rnd);
    // Past a few thousand names the combinations run thin; a numbered name is what a registry gets then too.
    const name = misses > 20 ? `${draft.name} ${2 + Math.floor(rnd() * 98)}` : draft.name;
    const target = add({
      name,
      description: draft.description,
      category: rnd() < 0.9 ? draft.topic.category : pick(CATEGORIES),
      tags: tagsOf(rnd, draft.topic),
      downloads: downloads(),
      facets: { shape: draft.shape, role: 'plain', verb: draft.verb, objects: draft.objects },
    });
    if (!target) {
      misses += 1;
      continue;
    }
    misses = 0;
    const r = rnd();
    if (!room()) break;
    if (r < 0.1) {
      // Another topic's skill that names the target's action and objects in passing.
      const other = plainDraft(rnd, draft.topic);
      const things = draft.objects.join(' ');
      const mention = [
        `Not meant for ${draft.verb.ing} ${pluralPhrase(draft.objects)}; use a dedicated skill for that.`,
        `Often paired with a ${things} ${draft.verb.agent}.`,
        `Complements tools like ${draft.name}.`,
      ];
      add({
        name: other.name,
        description: `${other.description} ${pick(mention)}`,
        category: other.topic.category,
        tags: tagsOf(rnd, other.topic),
        downloads: downloads(),
        facets: { shape: other.shape, role: 'mention', of: target.slug, verb: other.verb, objects: other.objects },
      });
    } else if (r < 0.17) {
      // A popular catch-all that shares the target's main object and nothing else of note.
      const object = draft.objects.join(' ');
      const chores = sample(
        rnd,
        draft.topic.verbs.filter((v) => v !== draft.verb.base),
        2,
      ).map((v) => VERBS.get(v)!.ing);
      add({
        name: rnd() < 0.7 ? `${title(object)} ${pick(POPULAR_NAMES)}` : `Ultimate ${title(object)} Assistant`,
        description: `An all-round ${object} helper for everyday chores: ${joinList([...chores, 'sharing'])}. Loved by ${pick(AUDIENCES)}.`,
        category: draft.topic.category,
        tags: tagsOf(rnd, draft.topic),
        downloads: 150_000 + Math.floor(rnd() * 750_000),
        facets: { shape: 'title', role: 'popular', of: target.slug, objects: [object] },
      });
    } else if (r < 0.21) {
      // A near-duplicate: the same name with a suffix, so only the exact name tells them apart.
      const suffix = pick(FORK_SUFFIXES);
      const forkName =
        draft.shape === 'kebab' || draft.shape === 'snake' || draft.shape === 'dotted'
          ? `${target.name}-${suffix.toLowerCase()}`
          : draft.shape === 'camel'
            ? `${target.name}${suffix}`
            : `${target.name} ${suffix}`;
      add({
        name: forkName,
        description: `A ${pick(['lighter', 'faster', 'community', 'maintained'])} fork of ${target.name}. ${draft.description}`,
        category: target.category,
        tags: target.tags,
        downloads: Math.floor(target.downloads * rnd() * 0.3),
        facets: { shape: draft.shape, role: 'fork', of: target.slug, verb: draft.verb, objects: target.facets.objects },
      });
    }
  }

  // Spread the hand-written skills through the rows, so no prefix of the list is all of one kind.
  for (const special of kept) {
    const row: RelevanceSkill = {
      id: newId(),
      slug: special.slug,
      name: special.name,
      description: special.description,
      category: special.category,
      tags: special.tags,
      featured: 0,
      downloads: Math.floor(rnd() ** 3 * 20_000),
      updatedAt: updatedAt(),
      facets: { shape: special.shape, role: 'special', objects: [], terms: special.terms },
    };
    rows.splice(Math.floor(rnd() * (rows.length + 1)), 0, row);
  }
  return rows;
}
