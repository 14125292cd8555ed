import { useEffect } from 'react';

/** The attribute that marks a page's search field (SearchBox sets it). */
export const PAGE_SEARCH_ATTR = 'data-page-search';

/** True when the key went to something the user types in (a field, an editor). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * "/" (outside a text field) or Ctrl+K / ⌘K puts the cursor in the page's search field, the first
 * one visible; with a dialog open, in the dialog's.
 */
export function useSearchShortcut() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target);
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k';
      if (!slash && !ctrlK) return;
      const dialogs = document.querySelectorAll<HTMLElement>('[role="dialog"]');
      const scope: ParentNode = dialogs.length ? dialogs[dialogs.length - 1]! : document;
      const field = [
        ...scope.querySelectorAll<HTMLInputElement>(`input[${PAGE_SEARCH_ATTR}]`),
      ].find((el) => el.offsetParent !== null && !el.disabled);
      if (!field) return;
      e.preventDefault();
      field.focus();
      field.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
