import { useEffect } from 'react';

const SITE = 'Skill Registry';

/** Sets the document title, which is also what a screen reader announces after navigation. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE}` : SITE;
  }, [title]);
}
