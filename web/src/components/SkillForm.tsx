import { useId, useState, type ReactNode, type SubmitEvent } from 'react';
import { ApiError } from '../api/client';
import type { Skill, SourceType } from '../api/types';
import { CATEGORY_MAX, DESCRIPTION_MAX, hasProblems, skillProblems, slugFromName, splitTags, type SkillFields } from '../lib/rules';
import { TextArea, TextField } from './Field';
import { SOURCE_LABELS } from './SourceLink';
import { ErrorMessage } from './States';

export type { SkillFields };

export function fieldsOf(skill: Skill | null): SkillFields {
  return {
    name: skill?.name ?? '',
    slug: skill?.slug ?? '',
    description: skill?.description ?? '',
    category: skill?.category ?? '',
    tags: skill?.tags.join(', ') ?? '',
    source_type: skill?.source_type ?? null,
    source_url: skill?.source_url ?? '',
  };
}

const SOURCE_CHOICES: { value: SourceType; key: keyof typeof SOURCE_LABELS; hint: string }[] = [
  { value: null, key: 'none', hint: 'Say nothing about where it comes from.' },
  { value: 'original', key: 'original', hint: 'You wrote it; there is no upstream.' },
  { value: 'github', key: 'github', hint: 'https://github.com/<owner>/<repo>, or a path inside it.' },
  { value: 'external', key: 'external', hint: 'Any http or https page.' },
];

interface SkillFormProps {
  /** The skill being edited; null to create one. */
  skill: Skill | null;
  submitLabel: string;
  onSubmit: (fields: SkillFields) => Promise<void>;
  onCancel?: () => void;
  /** Creating: where the skill is named (the scope choice), shown before the slug. */
  scopeChoice?: ReactNode;
  /** Creating: the chosen scope's handle, so the hint shows the whole name; null for an unscoped skill. */
  scope?: string | null;
}

/**
 * The skill's metadata, checked as it is typed with the server's own rules (lib/rules.ts). A field shows
 * its problem once it has been changed, or for every field when the form is submitted; problems the
 * server finds anyway (a taken slug) are shown at their field as well.
 */
export function SkillForm({ skill, submitLabel, onSubmit, onCancel, scopeChoice, scope = null }: SkillFormProps) {
  const id = useId();
  const creating = skill === null;
  const [fields, setFields] = useState<SkillFields>(() => fieldsOf(skill));
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const problems = skillProblems(fields, { creating });
  const serverErrors: Record<string, string> = {};
  if (error instanceof ApiError) {
    for (const e of error.errors) serverErrors[e.field.replace(/\[\d+\]$/, '')] ??= e.message;
    if (error.code === 'slug_taken') serverErrors.slug = error.problem.detail;
  }
  const problemOf = (field: keyof SkillFields) => (dirty[field] === true || submitted ? problems[field] : undefined) ?? serverErrors[field];

  function set<K extends keyof SkillFields>(field: K, value: SkillFields[K]) {
    setFields((f) => ({ ...f, [field]: value }));
    setDirty((d) => ({ ...d, [field]: true }));
  }

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (hasProblems(problems)) {
      // Take the person to the first field that needs attention.
      window.setTimeout(() => document.querySelector<HTMLElement>('.skill-form [aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(fields);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const derivedSlug = slugFromName(fields.name);
  const tags = splitTags(fields.tags).map((t) => t.toLowerCase());
  const needsUrl = fields.source_type === 'github' || fields.source_type === 'external';

  return (
    <form className="skill-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="Name"
        required
        value={fields.name}
        onChange={(e) => set('name', e.target.value)}
        error={problemOf('name')}
        maxLength={200}
      />
      {creating && scopeChoice}
      {creating ? (
        <TextField
          label="Slug"
          optional
          value={fields.slug}
          onChange={(e) => set('slug', e.target.value)}
          error={problemOf('slug')}
          placeholder={derivedSlug || 'pdf-tools'}
          hint={
            fields.slug.trim() === '' && derivedSlug
              ? `Left empty, it will be “${derivedSlug}”: the skill is named ${scope ? `@${scope}/` : ''}${derivedSlug}. The name is part of every URL of the skill.`
              : `Lower-case words joined by hyphens${scope ? `, after @${scope}/` : ''}. It is part of every URL of the skill.`
          }
          spellCheck={false}
          autoCapitalize="off"
        />
      ) : (
        <div className="field">
          <span className="label">Slug</span>
          <p>
            <code>{skill.full_name}</code> <span className="muted small">(renamed under “Name and owner”)</span>
          </p>
        </div>
      )}
      <TextArea
        label="Description"
        optional
        rows={3}
        value={fields.description}
        onChange={(e) => set('description', e.target.value)}
        error={problemOf('description')}
        hint={`${fields.description.trim().length} / ${DESCRIPTION_MAX} characters. Searched together with the name. Left empty, the first version's SKILL.md description fills it.`}
      />
      <div className="form-row">
        <TextField
          label="Category"
          optional
          value={fields.category}
          onChange={(e) => set('category', e.target.value)}
          error={problemOf('category')}
          hint={`At most ${CATEGORY_MAX} characters, e.g. documents.`}
        />
        <TextField
          label="Tags"
          optional
          value={fields.tags}
          onChange={(e) => set('tags', e.target.value)}
          error={problemOf('tags')}
          hint="Separated by commas or spaces; up to 20."
          spellCheck={false}
          autoCapitalize="off"
        />
      </div>
      {tags.length > 0 && !problems.tags && (
        <ul className="tags tags-preview" aria-label="Tags as they will be saved">
          {[...new Set(tags)].map((t) => (
            <li key={t} className="tag">
              {t}
            </li>
          ))}
        </ul>
      )}
      <fieldset className="source-choice">
        <legend>Source</legend>
        <div className="choice-list">
          {SOURCE_CHOICES.map((choice) => (
            <label key={choice.key} className="choice">
              <input
                type="radio"
                name={`${id}-source`}
                checked={fields.source_type === choice.value}
                onChange={() => {
                  set('source_type', choice.value);
                  if (choice.value === null || choice.value === 'original') set('source_url', '');
                }}
              />
              <span>
                <span className="choice-label">{SOURCE_LABELS[choice.key]}</span>
                <span className="choice-hint">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {needsUrl && (
        <TextField
          label="Source URL"
          type="url"
          required
          value={fields.source_url}
          onChange={(e) => set('source_url', e.target.value)}
          error={problemOf('source_url')}
          placeholder={fields.source_type === 'github' ? 'https://github.com/acme/pdf-tools' : 'https://example.com/pdf-tools'}
          spellCheck={false}
          autoCapitalize="off"
        />
      )}
      {error !== null && <ErrorMessage error={error} />}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
