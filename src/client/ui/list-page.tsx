/**
 * The list-page pattern of the administration (/config/sites, /config/groupes, /config/users,
 * /config/profils) and of the screens built next on it (integrations, recurrences…): a page with
 * its h1 and actions, an optional intro, the list in one of its four states, and the editing
 * dialog. Build a new list screen from these rather than copying one of those screens.
 *
 * What the pieces guarantee:
 * - {@link ListPage}: one h1 per screen, the actions beside it (wrapping under it on a phone), the
 *   page never wider than a 400 px screen (ui/page.css);
 * - {@link ListReads}: "loading", a failed read as a persistent alert with a Retry button that
 *   reads again every failed query, "empty" in words, else the list; texts come in the user's
 *   language from the caller;
 * - {@link EditDialog}: a modal dialog holding one form; a click outside does not close it (what
 *   was typed would be lost), Escape and the form's Cancel do; the focus starts in the form and
 *   goes back to the button that opened it;
 * - {@link Facts}: label/value pairs (a `dl`) in two columns from a tablet, label above value on
 *   a phone.
 */
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { cardClass } from './card.tsx';
import { Dialog } from './dialog.tsx';
import './page.css';

/** The page: title (h1), actions beside it, an intro under it, then the content. */
export function ListPage(props: {
  title: ReactNode;
  /** Buttons of the page ("New …"); shown at the end of the head. */
  actions?: ReactNode;
  /** A sentence saying what the screen holds, under the title. */
  intro?: ReactNode;
  /** The screen's own classes, added to the page's (layout, or hooks for its tests). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={props.className ? `ui-page ${props.className}` : 'ui-page'}>
      <div className="ui-page__head">
        <h1 className="ui-page__title">{props.title}</h1>
        {props.actions}
      </div>
      {props.intro ? <p className="ui-muted">{props.intro}</p> : null}
      {props.children}
    </div>
  );
}

/** What {@link ListReads} needs of a TanStack Query result. */
export interface ListRead {
  isError: boolean;
  isPending: boolean;
  refetch: () => Promise<unknown>;
}

/** The words of {@link ListReads}, in the user's language. */
export interface ListTexts {
  loading: string;
  failed: string;
  retry: string;
  /** Shown when `isEmpty`; omit when the list itself says it is empty (a Table's `empty`). */
  empty?: string;
}

/**
 * The list in its state: a failed read first (alert, Retry reads the failed ones again), then
 * "loading" while any read is pending, then the empty text (as a card) when `isEmpty`, else
 * `children()` — called only once every read has data.
 */
export function ListReads(props: {
  reads: readonly ListRead[];
  texts: ListTexts;
  isEmpty?: boolean;
  children: () => ReactNode;
}) {
  const { reads, texts } = props;
  if (reads.some((r) => r.isError)) {
    return (
      <div className="ui-refusal" role="alert">
        <p>{texts.failed}</p>
        <Button
          onPress={() => {
            for (const r of reads) if (r.isError) void r.refetch();
          }}
        >
          {texts.retry}
        </Button>
      </div>
    );
  }
  if (reads.some((r) => r.isPending)) return <p className="ui-muted">{texts.loading}</p>;
  if (props.isEmpty && texts.empty !== undefined)
    return <p className={`${cardClass} ui-muted`}>{texts.empty}</p>;
  return <>{props.children()}</>;
}

/**
 * The dialog that creates or edits one item of the list: open while `isOpen`, `onClose` on
 * Escape (the form's Cancel and its save call `onClose` themselves); never closed by a click
 * outside, so what was typed is not lost by a slip.
 */
export function EditDialog(props: {
  title: ReactNode;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      title={props.title}
      isOpen={props.isOpen}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
      isDismissable={false}
    >
      {props.children}
    </Dialog>
  );
}

/** Label/value pairs as a `dl`; `[label, value]` in the order shown, labels already translated. */
export function Facts({ facts }: { facts: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="ui-facts">
      {facts.map(([label, value]) => (
        <div key={label} className="ui-facts__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
