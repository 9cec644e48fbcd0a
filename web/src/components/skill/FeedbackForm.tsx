import { useId, useState, type SubmitEvent } from 'react';
import { feedback } from '../../api/endpoints';
import type { Version } from '../../api/types';
import { ErrorMessage } from '../States';

/** The registry's limit on a comment (src/domain/feedback/feedback.ts, COMMENT_MAX); the server enforces it. */
const COMMENT_MAX = 5000;
const LABELS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

/** Rating and comment on a published skill; anyone may send it, signed in or not. */
export function FeedbackForm({
  slug,
  versions,
  selectedVersion,
}: {
  slug: string;
  versions: readonly Version[];
  selectedVersion: string | null;
}) {
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [version, setVersion] = useState(selectedVersion ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (rating === null && comment.trim() === '') {
      setProblem('Choose a rating or write a comment (or both).');
      return;
    }
    setProblem(null);
    setBusy(true);
    setError(null);
    try {
      await feedback.submit({
        skill_id: slug,
        rating: rating ?? undefined,
        comment: comment.trim() === '' ? undefined : comment.trim(),
        version: version === '' ? undefined : version,
      });
      setSent(true);
      setRating(null);
      setComment('');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="alert alert-success feedback-thanks" role="status">
        <p className="alert-title">Thank you — your feedback was sent.</p>
        <p>The publisher of this skill can read it in their console.</p>
        <button type="button" className="button button-small" onClick={() => setSent(false)}>
          Send more feedback
        </button>
      </div>
    );
  }

  return (
    <form className="feedback-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset className="rating-input" aria-describedby={problem ? `${id}-problem` : undefined}>
        <legend>Rating</legend>
        <div className="rating-options">
          {[1, 2, 3, 4, 5].map((value) => (
            <label key={value} className={rating !== null && value <= rating ? 'rating-option on' : 'rating-option'}>
              <input type="radio" name={`${id}-rating`} value={value} checked={rating === value} onChange={() => setRating(value)} />
              <svg viewBox="0 0 16 16" aria-hidden="true">
                <path d="M8 1.5l1.9 4 4.4.5-3.3 3 .9 4.4L8 11.2 4.1 13.4 5 9 1.7 6l4.4-.5z" />
              </svg>
              <span className="visually-hidden">
                {value} {value === 1 ? 'star' : 'stars'}, {LABELS[value]}
              </span>
            </label>
          ))}
          <span className="rating-text" aria-hidden="true">
            {rating !== null ? LABELS[rating] : 'No rating'}
          </span>
          {rating !== null && (
            <button type="button" className="button button-small button-ghost" onClick={() => setRating(null)}>
              Clear rating
            </button>
          )}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-comment`}>
          Comment <span className="optional">(optional)</span>
        </label>
        <textarea
          id={`${id}-comment`}
          rows={4}
          value={comment}
          maxLength={COMMENT_MAX}
          onChange={(e) => setComment(e.target.value)}
          aria-describedby={`${id}-count`}
          placeholder="What worked, what did not, what you would like to see"
        />
        <p className="hint" id={`${id}-count`}>
          {comment.length} / {COMMENT_MAX} characters
        </p>
      </div>
      {versions.length > 0 && (
        <div className="field field-inline">
          <label htmlFor={`${id}-version`}>About version</label>
          <select id={`${id}-version`} value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value="">Any version</option>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>
                v{v.version}
              </option>
            ))}
          </select>
        </div>
      )}
      {problem && (
        <p className="field-error" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      {error !== null && <ErrorMessage error={error} />}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Sending…' : 'Send feedback'}
      </button>
    </form>
  );
}
