/**
 * What an administrator does to an existing user besides editing: see the sites the user
 * reaches (profile + added − removed companies, SPEC.md §6, by name), deactivate or reactivate,
 * mail a reset link, and remove after a confirmation (SPEC.md §5). Refusals (the last
 * administrator, oneself) stay on screen until the next action.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Utilisateur } from '../../../../contract/administration.ts';
import { notify } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { FormRefusal } from '../../../ui/form.tsx';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { formProblem, type Problem } from '../user-form-model.ts';
import { removeUser, saveUser, sendResetLink, useUsersAdminMutation } from '../users-admin-queries.ts';
import { useProblemText } from './form-parts.tsx';

/** The sites a user reaches, by name; "none" when empty. */
export function EffectiveSites({ names }: { names: readonly string[] }) {
  const intl = useIntl();
  return (
    <div className="ua-sites">
      <h3 className="ua-subtitle">
        {intl.formatMessage({ id: 'usersAdmin.sites' }, { count: names.length })}
      </h3>
      {names.length === 0 ? (
        <p className="ui-muted">{intl.formatMessage({ id: 'usersAdmin.sites.none' })}</p>
      ) : (
        <ul className="ua-sites__list">
          {names.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Deactivate / reactivate, reset link and remove for `user`; `onRemove` opens the confirmation. */
export function UserActions({ user, onRemove }: { user: Utilisateur; onRemove: () => void }) {
  const intl = useIntl();
  const text = useProblemText();
  const [problem, setProblem] = useState<Problem | null>(null);
  const toggle = useUsersAdminMutation((active: boolean) => saveUser(user.id, { active }));
  const [sending, setSending] = useState(false);

  async function setActive(active: boolean) {
    setProblem(null);
    await toggle.mutateAsync(active).catch((e: unknown) => setProblem(formProblem(e)));
  }
  async function sendLink() {
    setProblem(null);
    setSending(true);
    try {
      await sendResetLink(user.login);
      notify.success('MailEnvoye');
    } catch (e) {
      setProblem(formProblem(e));
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="ua-actions" aria-labelledby="ua-actions-title">
      <h3 id="ua-actions-title" className="ua-subtitle">
        {intl.formatMessage({ id: 'usersAdmin.actions' })}
      </h3>
      <FormRefusal text={text(problem)} />
      <div className="ui-buttons">
        <Button onPress={() => void setActive(!user.active)} isDisabled={toggle.isPending}>
          {intl.formatMessage({ id: user.active ? 'usersAdmin.deactivate' : 'usersAdmin.reactivate' })}
        </Button>
        <Button onPress={() => void sendLink()} isDisabled={sending || !user.email}>
          {intl.formatMessage({ id: 'usersAdmin.sendLink' })}
        </Button>
        <Button className="ui-danger" onPress={onRemove}>
          {intl.formatMessage({ id: 'usersAdmin.remove' })}
        </Button>
      </div>
    </section>
  );
}

/** The confirmation before removing `user` (SPEC.md §5, ui/removal-dialog.tsx); closed while it is null. */
export function RemoveUserDialog({ user, onClose }: { user: Utilisateur | null; onClose: () => void }) {
  const intl = useIntl();
  const text = useProblemText();
  const remove = useUsersAdminMutation(removeUser);
  return (
    <RemovalDialog
      target={user}
      title={intl.formatMessage({ id: 'usersAdmin.remove.title' })}
      body={(u) => intl.formatMessage({ id: 'usersAdmin.remove.body' }, { login: u.login })}
      confirmLabel={intl.formatMessage({ id: 'usersAdmin.remove.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'usersAdmin.cancel' })}
      remove={(u) => remove.mutateAsync(u.id)}
      refusalText={(e) => text(formProblem(e))}
      onClose={onClose}
    />
  );
}
