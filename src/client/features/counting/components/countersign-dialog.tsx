/**
 * The manager countersignature of a safe count (issue #3 point 2): another manager types their
 * login and manager code, and a comment, and the latest count of the site and day is countersigned
 * (fluxfin/contre_signe, which checks the code: a wrong one is shown at the code's field; the code
 * travels in the request's body, never in a URL). It needs the network
 * (safe-signatures.ts says why): offline, the dialog says so and keeps everything typed until it
 * is sent or the manager picks another count.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type Dispatch, type SetStateAction, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ManagerCodeSchema } from '../../../../contract/counting.ts';
import { formatDate } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications.ts';
import { TextField } from '../../../ui/text-field.tsx';
import { CommentField } from './counting-shell.tsx';
import { ManagerCodeField } from './manager-code-field.tsx';
import { OnlineDialogForm, useProblemText } from '../../../ui/online-dialog-form.tsx';
import { safeQueries } from '../counting-queries.ts';
import { RequestKeys } from '../../../lib/request-keys.ts';
import { countersign, failureOutcome } from '../safe-signatures.ts';

/** The count to countersign: the latest of `site` on `dateFiscale`; `libelle` names the site. */
export interface CountersignTarget {
  site: number;
  libelle: string;
  dateFiscale: string;
}

interface Draft {
  managerName: string;
  managerCode: string;
  commentaire: string;
}

const EMPTY: Draft = { managerName: '', managerCode: '', commentaire: '' };

/** Field errors and the dialog's message, as message ids. */
interface Problems {
  managerName?: string;
  managerCode?: string;
  /** Message id of the whole attempt's outcome (offline, refused…). */
  attempt?: string;
}

/** What is wrong with the draft before anything is sent (field → message id). */
function draftProblems(draft: Draft): Problems {
  const wrong: Problems = {};
  if (!draft.managerName.trim()) wrong.managerName = 'counting.error.required';
  if (!ManagerCodeSchema.safeParse(draft.managerCode).success)
    wrong.managerCode = 'counting.error.managerCode';
  return wrong;
}

/**
 * The draft typed for the count `targetKey` (`site:dateFiscale`), and its problems. What was typed
 * is kept while the same count is reopened (e.g. after going offline); another count starts empty
 * and settles the request keys of the previous one.
 */
function useCountersignDraft(targetKey: string | null, keys: RequestKeys) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [draftOf, setDraftOf] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problems>({});
  useEffect(() => {
    if (targetKey !== null && targetKey !== draftOf) {
      setDraft(EMPTY);
      setProblems({});
      setDraftOf(targetKey);
      keys.settle();
    }
  }, [targetKey, draftOf, keys]);
  /** Forgets the draft once countersigned. */
  const forget = () => {
    setDraft(EMPTY);
    setDraftOf(null);
  };
  return { draft, setDraft, problems, setProblems, forget };
}

/** The manager's login, manager code and comment. */
function CountersignFields({
  draft,
  setDraft,
  problems,
}: {
  draft: Draft;
  setDraft: Dispatch<SetStateAction<Draft>>;
  problems: Problems;
}) {
  const intl = useIntl();
  const problemText = useProblemText();
  return (
    <>
      <TextField
        label={intl.formatMessage({ id: 'counting.safe.managerLogin' })}
        value={draft.managerName}
        onChange={(managerName) => setDraft((d) => ({ ...d, managerName }))}
        autoComplete="off"
        isRequired
        isInvalid={problems.managerName !== undefined}
        errorMessage={problemText(problems.managerName)}
      />
      <ManagerCodeField
        label={intl.formatMessage({ id: 'counting.safe.managerCode' })}
        description={intl.formatMessage({ id: 'counting.safe.managerCodeHint' })}
        value={draft.managerCode}
        onChange={(managerCode) => setDraft((d) => ({ ...d, managerCode }))}
        autoComplete="off"
        problemId={problems.managerCode}
      />
      <CommentField
        value={draft.commentaire}
        onChange={(commentaire) => setDraft((d) => ({ ...d, commentaire }))}
      />
    </>
  );
}

/**
 * The countersign dialog of `target`: countersigns under one Idempotency-Key per typed request (a
 * retry after a lost answer countersigns once); a wrong manager code is shown at its field.
 */
export function CountersignDialog({
  userId,
  target,
  onClose,
}: {
  userId: number;
  /** The count to countersign; null keeps the dialog closed. */
  target: CountersignTarget | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [keys] = useState(() => new RequestKeys());
  const targetKey = target ? `${target.site}:${target.dateFiscale}` : null;
  const { draft, setDraft, problems, setProblems, forget } = useCountersignDraft(targetKey, keys);

  const send = async () => {
    if (!target) return;
    const managerName = draft.managerName.trim();
    const wrong = draftProblems(draft);
    setProblems(wrong);
    if (wrong.managerName || wrong.managerCode) return;
    setBusy(true);
    try {
      const input = {
        site: target.site,
        dateFiscale: target.dateFiscale,
        managerName,
        managerCode: draft.managerCode,
        commentaire: draft.commentaire.trim(),
      };
      await countersign(userId, input, keys.keyFor(JSON.stringify(input)));
      keys.settle();
      notify.success('safeCountersigned');
      forget();
      void queryClient.invalidateQueries({ queryKey: safeQueries.all() });
      onClose();
    } catch (e) {
      const outcome = failureOutcome(e, 'counting.online.countersign');
      if (outcome.settle) keys.settle();
      // A wrong code is the code field's problem: shown there, where it is typed again.
      const wrongCode = outcome.messageId === 'error.BadManagerCode';
      setProblems(wrongCode ? { managerCode: outcome.messageId } : { attempt: outcome.messageId });
    } finally {
      setBusy(false);
    }
  };

  return (
    <OnlineDialogForm
      title={
        <FormattedMessage
          id="counting.safe.countersignTitle"
          values={{ site: target?.libelle ?? '', date: target ? formatDate(target.dateFiscale) : '' }}
        />
      }
      isOpen={target !== null}
      onClose={onClose}
      onSubmit={() => void send()}
      testId="countersign-form"
      offlineNoticeId="counting.online.countersignNotice"
      problemId={problems.attempt ?? null}
      submitLabelId="counting.safe.countersign"
      busy={busy}
    >
      <CountersignFields draft={draft} setDraft={setDraft} problems={problems} />
    </OnlineDialogForm>
  );
}
