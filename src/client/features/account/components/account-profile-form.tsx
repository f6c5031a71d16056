/**
 * My details (SPEC.md §2 `/account`, §3 email, language, couleur): e-mail (required and valid,
 * SPEC.md §5), interface language and theme colour (SPEC.md §9). Saving a new language also
 * switches the interface to it. What was typed stays when saving fails.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { LANGUAGES, THEME_COLOURS, type Utilisateur } from '../../../../contract/administration.ts';
import type { Language } from '../../../../contract/reports.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { setLanguage, useLanguage } from '../../../lib/i18n.tsx';
import { notify, notifyFailure } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { RequiredLabel, ValidatedForm } from '../../../ui/form.tsx';
import { Select } from '../../../ui/select.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { saveMyAccount } from '../account-queries.ts';

/** An address with one @, something before it and a dotted domain after it, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type EmailProblem = 'required' | 'invalid' | null;

function emailProblem(email: string): EmailProblem {
  if (email.trim() === '') return 'required';
  return EMAIL.test(email.trim()) ? null : 'invalid';
}

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

/** The form of the module comment, filled with `user` as the server last answered it. */
export function AccountProfileForm({ user }: { user: Utilisateur }) {
  const intl = useIntl();
  const [interfaceLanguage] = useLanguage();
  const [email, setEmail] = useState(user.email ?? '');
  const [language, setChosenLanguage] = useState<Language>(
    isLanguage(user.language) ? user.language : interfaceLanguage,
  );
  const [couleur, setCouleur] = useState(user.couleur ?? THEME_COLOURS[0]);
  const [problem, setProblem] = useState<EmailProblem>(null);
  const [refusal, setRefusal] = useState<object | null>(null);
  const [pending, setPending] = useState(false);

  async function submit() {
    if (pending) return;
    const found = emailProblem(email);
    setProblem(found);
    if (found) {
      setRefusal({});
      return;
    }
    setPending(true);
    try {
      await saveMyAccount(user.id, user.login, { email: email.trim(), language, couleur });
      if (language !== interfaceLanguage) await setLanguage(language);
      notify.success('SuccessMod');
    } catch (e) {
      if (e instanceof ApiFailure && e.code === 'InvalidField' && e.details?.field === 'email') {
        setProblem('invalid');
        setRefusal({});
      } else {
        notifyFailure(e);
      }
    } finally {
      setPending(false);
    }
  }

  const mark = intl.formatMessage({ id: 'password.requiredMark' });
  return (
    <ValidatedForm
      className="account-form"
      onSubmit={() => void submit()}
      refusal={refusal}
      data-testid="account-profile-form"
    >
      <p className="account-form__login">
        {intl.formatMessage({ id: 'account.login' }, { login: user.login })}
      </p>
      <TextField
        label={<RequiredLabel label={intl.formatMessage({ id: 'account.email' })} mark={mark} />}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(v) => {
          setEmail(v);
          setProblem(null);
        }}
        isRequired
        maxLength={254}
        isInvalid={problem !== null}
        errorMessage={problem ? intl.formatMessage({ id: `account.email.${problem}` }) : undefined}
      />
      <Select
        label={intl.formatMessage({ id: 'account.language' })}
        options={LANGUAGES.map((l) => ({ id: l, label: intl.formatMessage({ id: `app.language.${l}` }) }))}
        value={language}
        onChange={(key) => {
          const chosen = String(key);
          if (isLanguage(chosen)) setChosenLanguage(chosen);
        }}
      />
      <Select
        label={intl.formatMessage({ id: 'account.colour' })}
        options={THEME_COLOURS.map((c) => ({
          id: c,
          label: intl.formatMessage({ id: `account.colour.${c}` }),
        }))}
        value={couleur}
        onChange={(key) => setCouleur(String(key))}
      />
      <Button type="submit" variant="primary" className="account-form__submit" isDisabled={pending}>
        {intl.formatMessage({ id: 'account.save' })}
      </Button>
    </ValidatedForm>
  );
}
