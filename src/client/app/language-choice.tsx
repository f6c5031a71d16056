/**
 * Language choice (SPEC.md §1: fr, en, de), on the login screen and in the header: one button per
 * language, each named in its own language, the active one marked pressed. A fieldset of native
 * buttons keeps it light on the login's first load.
 */
import { useIntl } from 'react-intl';
import { LANGUAGES, useLanguage } from '../lib/i18n.tsx';

export function LanguageChoice({ className }: { className?: string }) {
  const [language, setLanguage] = useLanguage();
  const intl = useIntl();
  return (
    <fieldset className={['language-choice', className].filter(Boolean).join(' ')}>
      <legend className="visually-hidden">{intl.formatMessage({ id: 'app.language' })}</legend>
      {LANGUAGES.map((l) => (
        <button
          key={l}
          type="button"
          lang={l}
          className="language-choice__option"
          aria-pressed={l === language}
          title={intl.formatMessage({ id: `app.language.${l}` })}
          onClick={() => void setLanguage(l)}
        >
          <span aria-hidden="true">{l.toUpperCase()}</span>
          <span className="visually-hidden">{intl.formatMessage({ id: `app.language.${l}` })}</span>
        </button>
      ))}
    </fieldset>
  );
}
