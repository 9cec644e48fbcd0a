import { useEffect, useId, useRef, useState } from 'react';

/**
 * Text cut to a few lines on narrow screens (the stylesheet decides where), with "More" to read the rest: a long
 * description must not push what comes after it (the download, on a skill's page) a screen down. The button is
 * shown only while the text is actually cut, or to fold it again.
 */
export function ClampedText({ text }: { text: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const [cut, setCut] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setCut(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, expanded]);

  return (
    <>
      <span ref={ref} id={id} className={expanded ? 'clamped-text' : 'clamped-text clamped'}>
        {text}
      </span>
      {(cut || expanded) && (
        <button
          type="button"
          className="link-button clamp-toggle"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Less' : 'More'}
        </button>
      )}
    </>
  );
}
