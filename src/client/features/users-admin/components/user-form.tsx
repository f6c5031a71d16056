/**
 * The form of a user of /config/users, new or existing: login, e-mail, profile, language,
 * operator code (the `code_exploitant` extra, SPEC.md §3), companies added to or removed from the
 * profile's sites (SPEC.md §6), and a password — for a new user, either one set now or a link
 * mailed to set it (reinit/sendReinitMail); for an existing one, an optional change. Checks run
 * before any call; the server's refusals land at their field or above the buttons; what was typed
 * stays until the save succeeds.
 */
import { useState } from 'react';
import { Radio, RadioGroup } from 'react-aria-components/RadioGroup';
import { useIntl } from 'react-intl';
import {
  LANGUAGES,
  type Profile,
  type Societe,
  type Utilisateur,
} from '../../../../contract/administration.ts';
import type { Language } from '../../../../contract/reports.ts';
import { notifyFailure } from '../../../lib/notifications.ts';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { FormFooter, FormRefusal, RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  checkUserDraft,
  hasProblems,
  NO_PROBLEMS,
  newUserDraft,
  newUserRequest,
  refusalProblems,
  saveUserBody,
  type UserDraft,
  type UserFormProblems,
  userDraftOf,
} from '../user-form-model.ts';
import { createUser, saveUser, sendResetLink, useUsersAdminMutation } from '../users-admin-queries.ts';
import { CompanyChanges, PasswordFields, useProblemText } from './form-parts.tsx';

export interface UserFormProps {
  /** The user edited, or null for a new one. */
  user: Utilisateur | null;
  profiles: readonly Profile[];
  companies: readonly Societe[];
  language: Language;
  /** Called once the user is saved. */
  onSaved: () => void;
  onCancel: () => void;
}

/** The form's state, its checks and its submit (create, or save). */
function useUserForm({ user, language, onSaved }: UserFormProps) {
  const intl = useIntl();
  const name = (id: string) => intl.formatMessage({ id });
  const [draft, setDraft] = useState<UserDraft>(() =>
    // No profile chosen for a new user: a default would be one click from granting too much.
    user ? userDraftOf(user, language) : newUserDraft(null, language),
  );
  const [problems, setProblems] = useState<UserFormProblems>(NO_PROBLEMS);
  const create = useUsersAdminMutation(createUser, (u) => ({
    code: 'userCreated',
    values: { name: u.login },
  }));
  const save = useUsersAdminMutation((args: { id: number; draft: UserDraft }) =>
    saveUser(args.id, saveUserBody(args.draft)),
  );

  async function submit() {
    const checked = checkUserDraft(draft, name);
    setProblems(checked);
    if (hasProblems(checked)) return;
    try {
      if (user) await save.mutateAsync({ id: user.id, draft });
      else {
        const created = await create.mutateAsync(newUserRequest(draft));
        // Without a password, the new user sets one through the link (an invitation).
        if (!draft.setPassword) await sendResetLink(created.login).catch(notifyFailure);
      }
      onSaved();
    } catch (e) {
      setProblems(refusalProblems(e, name));
    }
  }

  const update = (change: Partial<UserDraft>) => setDraft((d) => ({ ...d, ...change }));
  return { draft, setDraft, update, problems, submit, busy: create.isPending || save.isPending };
}

/** The user form of the module comment. */
export function UserForm(props: UserFormProps) {
  const intl = useIntl();
  const text = useProblemText();
  const { draft, setDraft, update, problems, submit, busy } = useUserForm(props);
  const mark = intl.formatMessage({ id: 'usersAdmin.required' });
  const label = (id: string) => intl.formatMessage({ id: `usersAdmin.field.${id}` });
  const refused = Object.keys(problems.fields).length > 0 || problems.form !== null ? problems : null;
  return (
    <ValidatedForm
      className="ui-form"
      onSubmit={() => void submit()}
      refusal={refused}
      data-testid="user-form"
    >
      <TextField
        label={<RequiredLabel label={label('login')} mark={mark} />}
        value={draft.login}
        onChange={(login) => update({ login })}
        isRequired
        autoComplete="off"
        autoFocus
        isInvalid={problems.fields.login !== undefined}
        errorMessage={text(problems.fields.login)}
      />
      <TextField
        label={<RequiredLabel label={label('email')} mark={mark} />}
        type="email"
        value={draft.email}
        onChange={(email) => update({ email })}
        isRequired
        autoComplete="off"
        isInvalid={problems.fields.email !== undefined}
        errorMessage={text(problems.fields.email)}
      />
      <Select
        label={<RequiredLabel label={label('profile')} mark={mark} />}
        options={props.profiles.map((p) => ({ id: p.id, label: p.titre }))}
        value={draft.profileId}
        onChange={(id) => update({ profileId: Number(id) })}
        placeholder={intl.formatMessage({ id: 'usersAdmin.field.profile.placeholder' })}
      />
      <FormRefusal text={text(problems.fields.profileId)} />
      <Select
        label={label('language')}
        options={LANGUAGES.map((l) => ({ id: l, label: intl.formatMessage({ id: `app.language.${l}` }) }))}
        value={draft.language}
        onChange={(l) => update({ language: l as Language })}
      />
      <TextField
        label={label('codeExploitant')}
        description={intl.formatMessage({ id: 'usersAdmin.field.codeExploitant.hint' })}
        value={draft.codeExploitant}
        onChange={(codeExploitant) => update({ codeExploitant })}
        maxLength={100}
        autoComplete="off"
        isInvalid={problems.fields.codeExploitant !== undefined}
        errorMessage={text(problems.fields.codeExploitant)}
      />
      <CompanyFields draft={draft} companies={props.companies} onChange={setDraft} />
      <PasswordChoice isNew={props.user === null} draft={draft} update={update} problems={problems} />
      <FormFooter
        refusal={text(problems.form)}
        submitLabel={intl.formatMessage({ id: props.user ? 'usersAdmin.save' : 'usersAdmin.create' })}
        cancelLabel={intl.formatMessage({ id: 'usersAdmin.cancel' })}
        busy={busy}
        onCancel={props.onCancel}
      />
    </ValidatedForm>
  );
}

/** Companies added to and removed from the profile's sites: a company is on one side at most. */
function CompanyFields(props: {
  draft: UserDraft;
  companies: readonly Societe[];
  onChange: (update: (draft: UserDraft) => UserDraft) => void;
}) {
  const intl = useIntl();
  if (props.companies.length === 0) return null;
  return (
    <fieldset className="ui-fieldset ua-fieldset">
      <legend>{intl.formatMessage({ id: 'usersAdmin.companies' })}</legend>
      <p className="ui-muted">{intl.formatMessage({ id: 'usersAdmin.companies.hint' })}</p>
      <CompanyChanges
        plusLabel={intl.formatMessage({ id: 'usersAdmin.companies.plus' })}
        minusLabel={intl.formatMessage({ id: 'usersAdmin.companies.minus' })}
        companies={props.companies}
        draft={props.draft}
        onChange={props.onChange}
      />
    </fieldset>
  );
}

/** New user: a link or a password now. Existing user: keep the password, or change it. */
function PasswordChoice(props: {
  isNew: boolean;
  draft: UserDraft;
  update: (change: Partial<UserDraft>) => void;
  problems: UserFormProblems;
}) {
  const intl = useIntl();
  const text = useProblemText();
  const { draft, update } = props;
  return (
    <fieldset className="ui-fieldset ua-fieldset">
      <legend id="ua-password-legend">{intl.formatMessage({ id: 'usersAdmin.password' })}</legend>
      {props.isNew ? (
        <RadioGroup
          className="ua-radios"
          aria-labelledby="ua-password-legend"
          value={draft.setPassword ? 'now' : 'link'}
          onChange={(v) => update({ setPassword: v === 'now' })}
        >
          <Radio value="link" className="ua-radio">
            {intl.formatMessage({ id: 'usersAdmin.password.link' })}
          </Radio>
          <Radio value="now" className="ua-radio">
            {intl.formatMessage({ id: 'usersAdmin.password.now' })}
          </Radio>
        </RadioGroup>
      ) : (
        <Checkbox isSelected={draft.setPassword} onChange={(setPassword) => update({ setPassword })}>
          {intl.formatMessage({ id: 'usersAdmin.password.change' })}
        </Checkbox>
      )}
      {draft.setPassword ? (
        <PasswordFields
          password={draft.password}
          confirmation={draft.confirmation}
          onPassword={(password) => update({ password })}
          onConfirmation={(confirmation) => update({ confirmation })}
          passwordError={text(props.problems.fields.password)}
          confirmationRefused={props.problems.fields.confirmation !== undefined}
        />
      ) : null}
    </fieldset>
  );
}
