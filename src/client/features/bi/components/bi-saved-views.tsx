/**
 * The explorer's saved views (bi-views.ts: this device's local storage): a name and a save
 * button, then one button per saved view to open it again and one to delete it. The name is
 * required (the field says so); what was typed stays when saving is refused.
 */
import { type FormEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import type { BiView } from '../../../../contract/bi.ts';
import { notify } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import type { ExploreChoice } from '../bi-choices.ts';
import { readViews, removeView, saveView } from '../bi-views.ts';

export function BiSavedViews({
  userId,
  choice,
  onOpen,
}: {
  userId: number;
  choice: ExploreChoice;
  onOpen: (choice: ExploreChoice) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const [views, setViews] = useState<BiView[]>(() => readViews(userId));
  const [name, setName] = useState('');

  function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return;
    setViews(saveView(userId, { ...choice, name: trimmed.slice(0, 80) }));
    notify.success('SuccessMod');
  }

  return (
    <Card labelledBy="bi-views-title" className="bi-views">
      <CardTitle id="bi-views-title">{t('bi.views.title')}</CardTitle>
      <p className="bi-views__note">{t('bi.views.note')}</p>
      <form className="bi-views__form" data-testid="bi-views-form" onSubmit={save}>
        <TextField
          label={t('bi.views.name')}
          value={name}
          onChange={setName}
          isRequired
          maxLength={80}
          errorMessage={t('bi.views.nameRequired')}
        />
        <Button type="submit" variant="primary">
          {t('bi.views.save')}
        </Button>
      </form>
      {views.length === 0 ? (
        <p>{t('bi.views.none')}</p>
      ) : (
        <ul className="bi-views__list">
          {views.map((v) => (
            <li key={v.name} className="bi-views__item">
              <Button onPress={() => onOpen(v)}>{t('bi.views.open', { name: v.name })}</Button>
              <Button onPress={() => setViews(removeView(userId, v.name))}>
                {t('bi.views.remove', { name: v.name })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
