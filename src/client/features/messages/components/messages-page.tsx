/**
 * /config/messages (SPEC.md §2; issue #18): the messages from the administration, newest first,
 * each with its text in the interface's language, severity, days and targets; create and edit in
 * a form (message-form.tsx) at the top of the list; delete after a confirmation (SPEC.md §5).
 * Saves and deletes are told with SPEC.md §8's SuccessMod.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { AdminMessage } from '../../../../contract/administration.ts';
import { wireToDisplay } from '../../../../contract/dates.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import type { PickerItem } from '../../../selection/components/multi-picker.tsx';
import { visibleSites } from '../../../selection/site-scope.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ListPage, ListReads } from '../../../ui/list-page.tsx';
import { useProblemText } from '../../../ui/online-dialog-form.tsx';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { messageQueries, useRemoveMessageMutation } from '../message-queries.ts';
import { MessageForm } from './message-form.tsx';
import './messages.css';

/** What the form is doing: nothing, a new message, or editing one. */
type Editing = null | 'new' | AdminMessage;

/** The screen of the module comment. */
export function MessagesPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const list = useQuery(messageQueries.admin(language));
  const profiles = useQuery(messageQueries.profiles());
  const ref = useReferenceData();
  const visible = visibleSites(ref.sites);
  const sites: PickerItem[] = visible.map((s) => ({
    id: String(s.restaurantId),
    label: s.libelle,
  }));
  const [editing, setEditing] = useState<Editing>(null);
  const newButtonId = useId();
  const wasEditing = useRef(false);
  // The form goes once saved or cancelled: the focus comes back to "New message", not to the page's start.
  useEffect(() => {
    if (wasEditing.current && editing === null) document.getElementById(newButtonId)?.focus();
    wasEditing.current = editing !== null;
  }, [editing, newButtonId]);
  const [deleting, setDeleting] = useState<AdminMessage | null>(null);
  const names = {
    sites: new Map(sites.map((s) => [Number(s.id), s.label])),
    profiles: new Map((profiles.data ?? []).map((p) => [p.id, p.titre])),
  };
  const messages = list.data ?? [];

  return (
    <ListPage
      className="msg-page"
      title={intl.formatMessage({ id: 'messages.title' })}
      intro={intl.formatMessage({ id: 'messages.intro' })}
      actions={
        <Button
          id={newButtonId}
          variant="primary"
          onPress={() => setEditing('new')}
          isDisabled={editing !== null}
        >
          {intl.formatMessage({ id: 'messages.new' })}
        </Button>
      }
    >
      {editing !== null ? (
        <Card labelledBy="msg-form-heading">
          <CardTitle id="msg-form-heading">
            {intl.formatMessage({ id: editing === 'new' ? 'messages.new' : 'messages.edit.title' })}
          </CardTitle>
          <MessageForm
            key={editing === 'new' ? 'new' : editing.id}
            message={editing === 'new' ? null : editing}
            sites={sites}
            timeZones={visible.map((s) => s.timeZone)}
            onClose={() => setEditing(null)}
          />
        </Card>
      ) : null}
      <ListReads
        reads={[list]}
        texts={{
          loading: intl.formatMessage({ id: 'messages.loading' }),
          failed: intl.formatMessage({ id: 'messages.loadFailed' }),
          retry: intl.formatMessage({ id: 'messages.retry' }),
        }}
      >
        {() =>
          messages.length === 0 ? (
            <p className="ui-muted msg-muted">{intl.formatMessage({ id: 'messages.empty' })}</p>
          ) : (
            <ul className="ui-list msg-list" aria-label={intl.formatMessage({ id: 'messages.list' })}>
              {messages.map((m) => (
                <MessageItem
                  key={m.id}
                  message={m}
                  names={names}
                  onEdit={setEditing}
                  onDelete={setDeleting}
                />
              ))}
            </ul>
          )
        }
      </ListReads>
      <DeleteDialog deleting={deleting} onClose={() => setDeleting(null)} />
    </ListPage>
  );
}

/** Names of sites and profiles by id, for the targets of a message. */
interface TargetNames {
  sites: ReadonlyMap<number, string>;
  profiles: ReadonlyMap<number, string>;
}

/** One message: text, severity, days, targets, and its edit and delete buttons. */
function MessageItem(props: {
  message: AdminMessage;
  names: TargetNames;
  onEdit: (message: AdminMessage) => void;
  onDelete: (message: AdminMessage) => void;
}) {
  const intl = useIntl();
  const m = props.message;
  const named = (ids: readonly number[], byId: ReadonlyMap<number, string>) =>
    ids.map((id) => byId.get(id) ?? `#${id}`).join(', ');
  const everyone = m.restaurantIds.length === 0 && m.profileIds.length === 0;
  const rows: [string, string][] = [
    ['messages.field.severity', intl.formatMessage({ id: `messages.severity.${m.severity}` })],
    [
      'messages.field.period',
      intl.formatMessage(
        { id: 'messages.period' },
        { from: wireToDisplay(m.fromDate), to: wireToDisplay(m.toDate) },
      ),
    ],
    ...(everyone
      ? [
          ['messages.field.targets', intl.formatMessage({ id: 'messages.targets.everyone' })] as [
            string,
            string,
          ],
        ]
      : []),
    ...(m.restaurantIds.length > 0
      ? [['messages.field.sites', named(m.restaurantIds, props.names.sites)] as [string, string]]
      : []),
    ...(m.profileIds.length > 0
      ? [['messages.field.profiles', named(m.profileIds, props.names.profiles)] as [string, string]]
      : []),
  ];
  return (
    <li className={`msg-item msg-item--${m.severity}`}>
      <p className="msg-item__text">{m.text}</p>
      <dl className="msg-facts">
        {rows.map(([label, value]) => (
          <div key={label} className="msg-facts__row">
            <dt>{intl.formatMessage({ id: label })}</dt>
            <dd
              className={label === 'messages.field.severity' ? `msg-tag msg-tag--${m.severity}` : undefined}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="ui-buttons">
        <Button
          onPress={() => props.onEdit(m)}
          aria-label={intl.formatMessage({ id: 'messages.edit.label' }, { text: m.text })}
        >
          {intl.formatMessage({ id: 'messages.edit' })}
        </Button>
        <Button
          className="ui-danger"
          onPress={() => props.onDelete(m)}
          aria-label={intl.formatMessage({ id: 'messages.delete.label' }, { text: m.text })}
        >
          {intl.formatMessage({ id: 'messages.delete' })}
        </Button>
      </div>
    </li>
  );
}

/** The confirmation before deleting `deleting` (SPEC.md §5, ui/removal-dialog.tsx); closed while it is null. */
function DeleteDialog({ deleting, onClose }: { deleting: AdminMessage | null; onClose: () => void }) {
  const intl = useIntl();
  const problemText = useProblemText();
  const remove = useRemoveMessageMutation();
  return (
    <RemovalDialog
      target={deleting}
      title={intl.formatMessage({ id: 'messages.delete.title' })}
      body={(m) => intl.formatMessage({ id: 'messages.delete.body' }, { text: m.text })}
      confirmLabel={intl.formatMessage({ id: 'messages.delete.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'messages.cancel' })}
      remove={(m) => remove.mutateAsync(m.id)}
      refusalText={(e) => problemText(e instanceof ApiFailure ? `error.${e.code}` : 'app.unexpectedError')}
      onClose={onClose}
    />
  );
}
